// TUI figures from issues 8 and 15: first frame after `claw` with the daemon
// running, render time per streamed delta with 100 vs 10,000 messages in
// history, keystroke-to-frame with 10,000 messages (wall time, and the CPU the
// process spent on it, which a loaded machine disturbs less), RSS with a
// 10,000-message session (right after a burst of 200 frames, and settled a few
// seconds later), and the gateway's search p50/p95 from
// bench/tui-search.mjs. Prints one JSON object.
// Usage: npm run build && node bench/tui.mjs [--quick]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GatewayClient } from '../dist/client/index.js';

// As `claw` does: React's development build is not what users run.
process.env.NODE_ENV ??= 'production';
const { createElement } = await import('react');
const { render } = await import('ink-testing-library');
const { App, TuiController, TuiStore, initialState } = await import('../dist/tui/index.js');

const quick = process.argv.includes('--quick');
const cli = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const key = 'agent:main:main';
const ms = (start) => Number(process.hrtime.bigint() - start) / 1e6;
const round = (n, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sleep = (t) => new Promise((resolve) => setTimeout(resolve, t));

/** Spawns `claw` on a pseudo-terminal (util-linux `script`) and times the first drawn frame. */
async function firstFrameMs(env) {
  const started = process.hrtime.bigint();
  const child = spawn('script', ['-qfec', `${process.execPath} ${cli}`, '/dev/null'], {
    env: { ...env, COLUMNS: '120', LINES: '40' },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  let out = '';
  const elapsed = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no frame within 30 s: ${out.slice(-500)}`)), 30_000);
    child.stdout.on('data', (chunk) => {
      out += chunk.toString('utf8');
      if (out.includes('claw ·') && out.includes('❯')) {
        clearTimeout(timer);
        resolve(ms(started));
      }
    });
  });
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('close', resolve));
  return elapsed;
}

function seededStore(messages) {
  const store = new TuiStore(initialState(), { frameMs: 1_000_000 });
  for (let i = 0; i < messages; i++) {
    store.applyEvent('chat', { runId: `r${i}`, sessionKey: key, state: 'final', text: `message ${i}: ${'lorem ipsum dolor sit amet '.repeat(3)}` });
  }
  return store;
}

/** Mean ms from a delta arriving to its frame being written, over `deltas` deltas. */
async function deltaCost(messages, deltas) {
  const store = seededStore(messages);
  const client = new GatewayClient({ url: 'ws://127.0.0.1:9', token: 'unused' });
  const controller = new TuiController(client, store);
  const app = render(createElement(App, { store, controller, exit: () => {}, size: { cols: 160, rows: 48 } }));
  await sleep(50);
  const samples = [];
  for (let i = 0; i < deltas; i++) {
    const before = app.frames.length;
    const start = process.hrtime.bigint();
    store.applyEvent('chat', { runId: 'live', sessionKey: key, state: 'delta', delta: `token${i} ` });
    store.flush();
    while (app.frames.length === before) await new Promise((resolve) => setImmediate(resolve));
    samples.push(ms(start));
  }
  app.unmount();
  store.dispose();
  return { perDeltaMs: median(samples) };
}

/** Median ms from a key reaching stdin to the frame that shows it, with `messages` in history. */
async function keystrokeCost(messages, keys) {
  const store = seededStore(messages);
  const client = new GatewayClient({ url: 'ws://127.0.0.1:9', token: 'unused' });
  const controller = new TuiController(client, store);
  const app = render(createElement(App, { store, controller, exit: () => {}, size: { cols: 160, rows: 48 } }));
  while (app.stdin.listenerCount('readable') === 0) await sleep(5);
  // The app draws a key at once (no store coalescing), so nothing is flushed here.
  const samples = [];
  const cpu = [];
  for (let i = 0; i < keys; i++) {
    const before = app.frames.length;
    const start = process.hrtime.bigint();
    const cpuStart = process.cpuUsage();
    app.stdin.write(i % 10 === 9 ? '\x7f' : String.fromCharCode(97 + (i % 26)));
    while (app.frames.length === before) await new Promise((resolve) => setImmediate(resolve));
    samples.push(ms(start));
    const used = process.cpuUsage(cpuStart);
    cpu.push((used.user + used.system) / 1000);
  }
  app.unmount();
  store.dispose();
  const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];
  return { median: median(samples), p95: p95(samples), cpuMedian: median(cpu), cpuP95: p95(cpu) };
}

/** RSS of a fresh process holding a rendered TUI fed 10,000 messages (run as a child for a clean figure). */
async function rssChild() {
  // Messages arrive over time in a real session; yielding lets the collector keep up as it would.
  const store = new TuiStore(initialState(), { frameMs: 1_000_000 });
  for (let i = 0; i < 10_000; i++) {
    store.applyEvent('chat', { runId: `r${i}`, sessionKey: key, state: 'final', text: `message ${i}: ${'lorem ipsum dolor sit amet '.repeat(3)}` });
    if (i % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  const client = new GatewayClient({ url: 'ws://127.0.0.1:9', token: 'unused' });
  const app = render(createElement(App, { store, controller: new TuiController(client, store), exit: () => {}, size: { cols: 160, rows: 48 } }));
  for (let i = 0; i < 200; i++) {
    store.applyEvent('chat', { runId: 'live', sessionKey: key, state: 'delta', delta: `token${i} ` });
    store.flush();
    await new Promise((resolve) => setImmediate(resolve));
  }
  globalThis.gc?.();
  await sleep(100);
  const afterBurst = process.memoryUsage();
  // V8 gives the pages the frames' garbage used back to the system only a while after a
  // full collection; what stays then is what an idle session holds.
  await sleep(5000);
  globalThis.gc?.();
  await sleep(1000);
  const settled = process.memoryUsage();
  process.stdout.write(
    JSON.stringify({
      rss: afterBurst.rss,
      heapUsed: afterBurst.heapUsed,
      settledRss: settled.rss,
      settledHeapUsed: settled.heapUsed,
      frames: app.frames.length,
    }),
  );
  app.unmount();
  store.dispose();
}

if (process.argv.includes('--rss-child')) {
  await rssChild();
  process.exit(0);
}

const state = mkdtempSync(join(tmpdir(), 'claw-bench-tui-'));
const env = { ...process.env, CLAW_STATE_DIR: state };
for (const k of Object.keys(env)) if (k === 'CI' || k.startsWith('CI_')) delete env[k];
delete env.CLAW_GATEWAY_PORT;
delete env.CLAW_GATEWAY_TOKEN;
try {
  const start = spawnSync(process.execPath, [cli, 'gateway', 'start', '--port', '0'], { env, encoding: 'utf8' });
  if (start.status !== 0) throw new Error(`gateway start failed: ${start.stderr}`);
  const frames = [];
  for (let i = 0; i < (quick ? 2 : 5); i++) frames.push(await firstFrameMs(env));

  const deltas = quick ? 60 : 300;
  await deltaCost(100, 30);
  const small = await deltaCost(100, deltas);
  const large = await deltaCost(10_000, deltas);
  const ratio = large.perDeltaMs / small.perDeltaMs;
  const keystroke = await keystrokeCost(10_000, quick ? 60 : 300);
  // The same keys on an empty chat: what a frame of this size costs in Ink whatever the history holds.
  const emptyKeystroke = await keystrokeCost(0, quick ? 60 : 300);
  const child = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--rss-child'], { encoding: 'utf8' });
  const memory = JSON.parse(child.stdout);
  const searchRun = spawnSync(process.execPath, [fileURLToPath(new URL('./tui-search.mjs', import.meta.url)), ...(quick ? ['--quick'] : [])], {
    encoding: 'utf8',
  });
  if (searchRun.status !== 0) throw new Error(`bench/tui-search.mjs failed: ${searchRun.stderr}`);
  const search = JSON.parse(searchRun.stdout.trim().split('\n').at(-1));
  console.log(
    JSON.stringify({
      bench: 'tui',
      loadavg1: round(loadavg()[0]),
      first_frame_ms: { median: round(median(frames)), min: round(Math.min(...frames)), runs: frames.length, target: 200 },
      delta_render_ms: {
        history_100: round(small.perDeltaMs, 3),
        history_10000: round(large.perDeltaMs, 3),
        ratio: round(ratio, 3),
        target_ratio: 1.3,
        deltas,
      },
      keystroke_to_frame_ms_10000_messages: {
        median: round(keystroke.median, 3),
        p95: round(keystroke.p95, 3),
        cpu_median: round(keystroke.cpuMedian, 3),
        cpu_p95: round(keystroke.cpuP95, 3),
        target: 16,
        size: '160x48',
      },
      keystroke_to_frame_ms_empty_chat: { cpu_median: round(emptyKeystroke.cpuMedian, 3), cpu_p95: round(emptyKeystroke.cpuP95, 3) },
      search_ms_10000_messages_100_sessions: { ...search.flexsearch_handler_ms, corpus: search.corpus },
      rss_mb_10000_messages: {
        value: round(memory.rss / 1048576, 1),
        settled: round(memory.settledRss / 1048576, 1),
        heap_used: round(memory.heapUsed / 1048576, 1),
        target: 150,
      },
    }),
  );
} finally {
  spawnSync(process.execPath, [cli, 'gateway', 'stop'], { env, encoding: 'utf8' });
  rmSync(state, { recursive: true, force: true });
}
