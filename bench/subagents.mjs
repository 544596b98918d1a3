// Subagents benchmark, on an in-process core with its real services:
// - spawn overhead: from sessions_spawn's call to the child's turn starting
//   (the point its first model token could be asked for), with an instant
//   runner, so no model time is in it;
// - completion delivery: from the child's turn returning to the parent's turn
//   starting on the subagent_result message (inbox fsync, journal, lane);
// - 100 concurrent children on a fake OpenAI-compatible model over loopback
//   HTTP: wall time, children per second, and the process RSS.
// Prints one JSON object. Run: node --import tsx bench/subagents.mjs (BENCH_SAMPLES, BENCH_CHILDREN)
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig, statePaths, writeRawConfig } from '../source/config/index.js';
import { silentLogger } from '../source/config/index.js';
import { createCore, EventBus } from '../source/core/index.js';

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 60);
const CONCURRENT = Number(process.env.BENCH_CHILDREN ?? 100);
const PARENT = 'agent:main:main';
/** The config allows at most 50 running children per parent: the concurrent run spreads over parents. */
const PER_PARENT = 50;
const parentOf = (i) => (i % Math.ceil(CONCURRENT / PER_PARENT) === 0 ? PARENT : `agent:main:bench:direct:p${i % Math.ceil(CONCURRENT / PER_PARENT)}`);

const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];
const round = (n) => Math.round(n * 1000) / 1000;
const rssMb = () => Math.round((process.memoryUsage().rss / 1024 / 1024) * 10) / 10;

/** A fake Chat Completions endpoint: every request streams one short answer. */
function startFakeModel() {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta, finish) =>
        `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.write(chunk({ role: 'assistant', content: 'child result' }, null));
      res.write(chunk({}, 'stop'));
      res.write(
        `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [], usage: { prompt_tokens: 100, completion_tokens: 3 } })}\n\n`,
      );
      res.end('data: [DONE]\n\n');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function withCore(config, runner, body) {
  const dir = mkdtempSync(join(tmpdir(), 'claw-bench-subagents-'));
  const paths = statePaths(dir);
  writeRawConfig(paths.config, config);
  const core = await createCore({
    config: loadConfig(paths.config),
    paths,
    log: silentLogger,
    events: new EventBus(1000),
    ...(runner ? { runner } : {}),
    env: {},
  });
  await core.start();
  try {
    return await body(core);
  } finally {
    await core.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const baseConfig = (extra = {}) => ({
  agents: { defaults: { heartbeat: { every: '0' }, subagents: { maxChildrenPerAgent: 50 }, ...extra } },
  queue: { debounceMs: 0 },
});

/** Spawn → child turn start, and child outcome → parent turn start, one child at a time. */
async function overheads() {
  const childStarted = new Map();
  const childEnded = new Map();
  const parentStarted = new Map();
  let settle;
  const runner = {
    async run(turn) {
      const now = performance.now();
      const first = turn.messages[0];
      if (turn.sessionKey.includes(':subagent:')) {
        childStarted.set(first.messageId.slice('spawn:'.length), now);
        const text = 'child result';
        turn.session.append({ type: 'message', role: 'assistant', content: [{ type: 'text', text }], stopReason: 'stop' });
        childEnded.set(first.messageId.slice('spawn:'.length), performance.now());
        return { status: 'replied', text };
      }
      if (first.messageId.startsWith('subagent_result:')) {
        parentStarted.set(first.messageId.slice('subagent_result:'.length), now);
        settle?.();
      }
      turn.session.append({ type: 'message', role: 'assistant', content: [{ type: 'text', text: 'ok' }], stopReason: 'stop' });
      return { status: 'replied', text: 'ok' };
    },
  };
  return withCore(baseConfig(), runner, async (core) => {
    const spawn = [];
    const delivery = [];
    for (let i = 0; i < SAMPLES + 5; i += 1) {
      const done = new Promise((resolve) => {
        settle = resolve;
      });
      const start = performance.now();
      const { runId } = await core.subagents.spawn({ parentKey: PARENT, task: `task ${i}`, label: `b${i}` });
      await done;
      if (i < 5) continue;
      spawn.push(childStarted.get(runId) - start);
      delivery.push(parentStarted.get(runId) - childEnded.get(runId));
    }
    return {
      spawnToChildTurnMs: { p50: round(percentile(spawn, 50)), p95: round(percentile(spawn, 95)), samples: spawn.length, targetMs: 10 },
      completionDeliveryMs: { p50: round(percentile(delivery, 50)), p95: round(percentile(delivery, 95)), samples: delivery.length, targetMs: 20 },
    };
  });
}

/** CONCURRENT children at once on the fake model (the subagent lane caps how many run together). */
async function concurrent() {
  const model = await startFakeModel();
  const { port } = model.address();
  try {
    const config = {
      ...baseConfig({ model: 'fake/m', subagents: { maxChildrenPerAgent: PER_PARENT } }),
      models: { providers: { fake: { api: 'openai', baseUrl: `http://127.0.0.1:${port}/v1`, models: { m: {} } } } },
    };
    return await withCore(config, undefined, async (core) => {
      const rssBefore = rssMb();
      let rssPeak = rssBefore;
      const sampler = setInterval(() => {
        rssPeak = Math.max(rssPeak, rssMb());
      }, 20);
      const start = performance.now();
      await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => core.subagents.spawn({ parentKey: parentOf(i), task: `part ${i}`, label: `c${i}` })));
      for (;;) {
        const nodes = core.subagents.list();
        if (nodes.length === CONCURRENT && nodes.every((n) => n.endedAt !== undefined)) break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const wallMs = performance.now() - start;
      await core.subagents.settled();
      clearInterval(sampler);
      const nodes = core.subagents.list();
      return {
        parents: Math.ceil(CONCURRENT / PER_PARENT),
        children: CONCURRENT,
        laneLimit: core.config.current.queue.lanes.subagent,
        done: nodes.filter((n) => n.status === 'done').length,
        wallMs: round(wallMs),
        childrenPerSecond: round((CONCURRENT / wallMs) * 1000),
        rssMb: { before: rssBefore, peak: rssPeak, after: rssMb() },
      };
    });
  } finally {
    await new Promise((resolve) => model.close(resolve));
  }
}

const result = { node: process.version, ...(await overheads()), concurrentFakeModel: await concurrent() };
console.log(JSON.stringify(result, null, 2));
