// Hooks and webhooks costs. Prints one JSON object.
//  - webhook accept latency: POST /hooks/agent → 202 on a real loopback
//    gateway, sequential, p50/p99; once with the journal's fsync and once
//    without it (the rest of the path), plus the bare fsync of one journal-sized
//    append on the same disk;
//  - hook dispatch overhead per event with 10 in-process hooks installed
//    (a gated tool:before and a fire-and-forget turn:end), and with none.
// Run after `npm run build`: node bench/hooks.mjs [--requests N]
import { mkdirSync, mkdtempSync, openSync, writeSync, fdatasyncSync, closeSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ensureGatewayTokenSync, loadConfig, statePaths, systemClock, configSchema, writeRawConfig, silentLogger } from '../dist/config/index.js';
import { GatewayServer } from '../dist/gateway/index.js';
import { createCore, EventBus, Lifecycle } from '../dist/core/index.js';
import { HookDispatcher, discoverHooksSync, readWebhookTokenSync } from '../dist/hooks/index.js';

const argRequests = Number(process.argv[process.argv.indexOf('--requests') + 1]);
const REQUESTS = Number.isFinite(argRequests) && argRequests > 0 ? argRequests : 300;
const EVENTS = 5_000;

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Number(sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))].toFixed(3));
};

/** A runner that answers nothing and at once, so turns do not compete with the requests measured. */
const idleRunner = {
  async run() {
    return { status: 'suppressed' };
  },
};

async function acceptLatency(fsync) {
  const dir = mkdtempSync(join(tmpdir(), 'claw-bench-hooks-'));
  const paths = statePaths(dir);
  const token = ensureGatewayTokenSync(paths, {});
  // The per-route limit (60/min by default) would refuse the benchmark's own load.
  writeRawConfig(paths.config, { hooks: { webhooks: { rateLimitPerMinute: 1_000_000 } } });
  const config = loadConfig(paths.config);
  const events = new EventBus(config.gateway.resumeBufferEvents);
  const core = await createCore({
    config,
    paths,
    log: silentLogger,
    events,
    env: { OLLAMA_HOST: '127.0.0.1:9' },
    runner: idleRunner,
    journalFsync: fsync,
    hooks: { bundledDir: join(dir, 'none') },
  });
  await core.start();
  const server = new GatewayServer({ config, paths, port: 0, bind: '127.0.0.1', token, log: silentLogger, core });
  const port = await server.start();
  const webhookToken = readWebhookTokenSync(paths);
  const url = `http://127.0.0.1:${port}/hooks/agent`;
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${webhookToken}` };
  const samples = [];
  try {
    for (let i = 0; i < REQUESTS + 20; i += 1) {
      const body = JSON.stringify({ message: `build ${i} finished`, sessionKey: `hook:bench-${i % 8}` });
      const start = performance.now();
      const response = await fetch(url, { method: 'POST', headers, body });
      await response.arrayBuffer();
      const elapsed = performance.now() - start;
      if (response.status !== 202) throw new Error(`request ${i}: ${response.status}`);
      if (i >= 20) samples.push(elapsed);
    }
  } finally {
    await server.stop('bench done');
    rmSync(dir, { recursive: true, force: true });
  }
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

function bareFsync() {
  const dir = mkdtempSync(join(tmpdir(), 'claw-bench-fsync-'));
  const fd = openSync(join(dir, 'journal.jsonl'), 'a');
  const line = `${JSON.stringify({ t: 'accepted', seq: 1, at: Date.now(), dedupeKey: 'webhook\u0000agent:x', runId: 'r'.repeat(36), messageId: 'agent:x', sessionKey: 'hook:bench', agentId: 'main', channel: 'webhook', text: 'build finished', mode: 'followup' })}\n`;
  const samples = [];
  for (let i = 0; i < REQUESTS; i += 1) {
    const start = performance.now();
    writeSync(fd, line);
    fdatasyncSync(fd);
    samples.push(performance.now() - start);
  }
  closeSync(fd);
  rmSync(dir, { recursive: true, force: true });
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

async function dispatchOverhead() {
  const dir = mkdtempSync(join(tmpdir(), 'claw-bench-dispatch-'));
  const entries = {};
  for (let i = 0; i < 10; i += 1) {
    const hook = join(dir, `hook-${i}`);
    mkdirSync(hook);
    writeFileSync(join(hook, 'HOOK.md'), `---\nname: hook-${i}\ndescription: bench hook ${i}\nevents: [tool:before, turn:end]\n---\n`);
    writeFileSync(
      join(hook, 'handler.mjs'),
      i === 9
        ? 'export default (event) => (event.payload.tool === "never" ? { block: true, reason: "no" } : undefined);\n'
        : 'export default () => undefined;\n',
    );
    entries[`hook-${i}`] = { enabled: true };
  }
  const lifecycle = new Lifecycle(silentLogger);
  const dispatcher = new HookDispatcher({
    clock: systemClock,
    log: silentLogger,
    capabilities: { saveConversationToMemory: async () => undefined },
    stateDir: dir,
  });
  dispatcher.load(discoverHooksSync({ user: dir }).hooks, configSchema.parse({ hooks: { entries } }).hooks);
  const empty = new Lifecycle(silentLogger);
  const measure = async (fn) => {
    for (let i = 0; i < 200; i += 1) await fn(i);
    const start = performance.now();
    for (let i = 0; i < EVENTS; i += 1) await fn(i);
    return Number((((performance.now() - start) / EVENTS) * 1000).toFixed(1));
  };
  for (const event of ['tool:before', 'turn:end'])
    lifecycle.on(event, async (payload) => (await dispatcher.dispatch(event, payload)).map(({ hook, result }) => ({ ...result, source: hook })));
  const result = {
    gatedToolBefore10HooksUs: await measure((i) =>
      lifecycle.gate('tool:before', { sessionKey: 'agent:main:main', runId: `r${i}`, tool: 'read', args: { path: 'a' } }),
    ),
    turnEnd10HooksUs: await measure((i) => lifecycle.emit('turn:end', { sessionKey: 'agent:main:main', runId: `r${i}`, status: 'end' })),
    gatedNoHooksUs: await measure((i) => empty.gate('tool:before', { sessionKey: 'agent:main:main', runId: `r${i}`, tool: 'read', args: {} })),
  };
  rmSync(dir, { recursive: true, force: true });
  return result;
}

const withFsync = await acceptLatency(true);
const withoutFsync = await acceptLatency(false);
const fsyncOnly = bareFsync();
const dispatch = await dispatchOverhead();
console.log(
  JSON.stringify(
    {
      requests: REQUESTS,
      webhookAcceptMs: { withFsync, withoutFsync, fsyncAlone: fsyncOnly, targetP50WithoutFsyncMs: 5 },
      hookDispatchPerEvent: { ...dispatch, events: EVENTS, targetUs: 1000 },
    },
    null,
    1,
  ),
);
