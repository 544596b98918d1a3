// Memory and throughput of a real gateway child under many turns (echo runner):
// RSS after 2k / 10k / 20k turns over 200 sessions, turns per second, and the
// fsync/fdatasync calls per message (counted by strace -f -c on a separate run).
// Prints one JSON object.
// Also RSS with --idle-sessions (2k) sessions open, and again once idle-session
// eviction (session.evictIdleMinutes, shortened here) has closed them, next to a
// control run with eviction off on the same timeline.
// Run after `npm run build`: node bench/rss-turns.mjs [--dist DIR] [--turns 2000,10000,20000] [--sessions 200] [--idle-sessions 2000] [--no-fsync] [--no-eviction]
// --dist runs another build (e.g. the previous commit's) for before/after figures.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
}
const dist = resolve(arg('--dist', fileURLToPath(new URL('../dist', import.meta.url))));
const checkpoints = arg('--turns', '2000,10000,20000').split(',').map(Number);
const sessions = Number(arg('--sessions', '200'));
const countFsync = !process.argv.includes('--no-fsync');
const idleSessions = Number(arg('--idle-sessions', '2000'));
const measureEviction = !process.argv.includes('--no-eviction');
// Short enough to wait for, long enough that no session is evicted while the others are still being sent to.
const EVICT_IDLE_MINUTES = 0.5;
// Older builds exported the client from gateway/.
const { GatewayClient } = await import(join(dist, 'client', 'index.js')).catch(() => import(join(dist, 'gateway', 'index.js')));

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const round = (n, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Starts `gateway run` (optionally under a wrapper such as strace) and resolves once /readyz answers. */
async function startGateway(stateDir, wrapper = []) {
  const env = { ...process.env, CLAW_STATE_DIR: stateDir, CLAW_TEST_RUNNER: 'echo' };
  delete env.CLAW_GATEWAY_PORT;
  delete env.CLAW_GATEWAY_TOKEN;
  const argv = [...wrapper, process.execPath, join(dist, 'cli', 'main.js'), 'gateway', 'run', '--port', '0'];
  const child = spawn(argv[0], argv.slice(1), { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c) => {
    stderr += c;
  });
  const exited = new Promise((r) => child.once('exit', r));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (Date.now() > deadline) throw new Error(`gateway not ready: ${stderr}`);
    const info = readJson(join(stateDir, 'gateway.json'));
    if (info?.port) {
      const ok = await fetch(`http://127.0.0.1:${info.port}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) {
        const token = readFileSync(join(stateDir, 'credentials', 'gateway-token'), 'utf8').trim();
        const client = new GatewayClient({ url: `ws://127.0.0.1:${info.port}`, token, clientName: 'bench', requestTimeoutMs: 60_000 });
        await client.connect();
        return { child, client, pid: info.pid, exited };
      }
    }
    await sleep(50);
  }
}

/** Sends one message to each session and waits for every reply; resolves with the turns run. */
async function window(client, first, count = sessions, prefix = 's') {
  // Replies can arrive before their acknowledgement does: remember both sides.
  const ended = new Set();
  const pending = new Set();
  let done;
  const finished = new Promise((r) => {
    done = r;
  });
  const off = client.on('chat', (payload) => {
    if (payload.state !== 'final' && payload.state !== 'error') return;
    ended.add(payload.runId);
    if (pending.delete(payload.runId) && pending.size === 0) done();
  });
  const acks = [];
  for (let s = 0; s < count; s += 1) {
    const id = `m${first + s}`;
    acks.push(
      client
        .request('chat.send', { sessionKey: `agent:main:bench:direct:${prefix}${s}`, text: `hello ${id} ${'x'.repeat(200)}`, idempotencyKey: id })
        .then((res) => res.runId),
    );
  }
  for (const runId of await Promise.all(acks)) if (!ended.has(runId)) pending.add(runId);
  if (pending.size > 0) await finished;
  off();
  return count;
}

function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  // RssAnon is the malloc and V8 heap; RssFile is mapped code (node itself, native addons).
  return {
    rssMb: round(kb('VmRSS') / 1024),
    peakMb: round(kb('VmHWM') / 1024),
    anonMb: round(kb('RssAnon') / 1024),
    fileMb: round(kb('RssFile') / 1024),
  };
}

async function memoryRun() {
  const stateDir = mkdtempSync(join(tmpdir(), 'claw-bench-rss-'));
  const gw = await startGateway(stateDir);
  try {
    await sleep(500);
    const figures = { startRssMb: rssMb(gw.pid).rssMb, checkpoints: [] };
    let turns = 0;
    const started = performance.now();
    let busyMs = 0;
    for (const target of checkpoints) {
      const t0 = performance.now();
      while (turns < target) turns += await window(gw.client, turns);
      busyMs += performance.now() - t0;
      // Idle a moment so what is measured is what stays, not what is in flight.
      await sleep(2000);
      figures.checkpoints.push({ turns, ...rssMb(gw.pid), turnsPerSecond: round(turns / (busyMs / 1000)) });
      console.error(JSON.stringify(figures.checkpoints.at(-1)));
    }
    figures.wallSeconds = round((performance.now() - started) / 1000);
    return figures;
  } finally {
    gw.client.close();
    gw.child.kill('SIGTERM');
    await gw.exited;
    rmSync(stateDir, { recursive: true, force: true });
  }
}

/** fsync + fdatasync calls by the whole process (all threads), for `messages` turns. */
async function fsyncRun(messages) {
  const stateDir = mkdtempSync(join(tmpdir(), 'claw-bench-fsync-'));
  const out = join(stateDir, 'strace.txt');
  const gw = await startGateway(stateDir, ['strace', '-f', '-c', '-e', 'trace=fsync,fdatasync', '-o', out]);
  try {
    let turns = 0;
    while (turns < messages) turns += await window(gw.client, turns);
    await sleep(1500);
  } finally {
    gw.client.close();
    // Stop the gateway itself; strace writes its count when its tracee exits.
    process.kill(gw.pid, 'SIGTERM');
    await gw.exited;
  }
  const text = readFileSync(out, 'utf8');
  rmSync(stateDir, { recursive: true, force: true });
  let calls = 0;
  for (const line of text.split('\n')) {
    const m = /^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(fsync|fdatasync)\s*$/.exec(line);
    if (m) calls += Number(m[1]);
  }
  return calls;
}

/**
 * RSS with `idleSessions` sessions that each got one turn, measured right
 * after the turns and again once every one has been idle past
 * `evictIdleMinutes` (plus a sweep and a margin for the garbage collector);
 * undefined leaves the default, which this timeline does not reach.
 */
async function evictionRun(evictIdleMinutes) {
  const stateDir = mkdtempSync(join(tmpdir(), 'claw-bench-evict-'));
  // The control writes no config: the default idle time (10 min) is not reached on this timeline, and older builds start too.
  if (evictIdleMinutes !== undefined) writeFileSync(join(stateDir, 'claw.json'), JSON.stringify({ session: { evictIdleMinutes } }));
  const gw = await startGateway(stateDir);
  try {
    await sleep(500);
    const startRssMb = rssMb(gw.pid).rssMb;
    const t0 = performance.now();
    // In windows of `sessions`, as the memory run sends, so the journal and lanes see the same load.
    for (let sent = 0; sent < idleSessions; sent += sessions) await window(gw.client, sent, Math.min(sessions, idleSessions - sent), `idle${sent}-`);
    const sendSeconds = round((performance.now() - t0) / 1000);
    await sleep(2000);
    const open = rssMb(gw.pid);
    await sleep(EVICT_IDLE_MINUTES * 60_000 + 15_000);
    const idle = rssMb(gw.pid);
    return {
      evictIdleMinutes: evictIdleMinutes ?? 'default, not reached',
      sessions: idleSessions,
      sendSeconds,
      startRssMb,
      withSessionsOpen: open,
      afterIdle: idle,
    };
  } finally {
    gw.client.close();
    gw.child.kill('SIGTERM');
    await gw.exited;
    rmSync(stateDir, { recursive: true, force: true });
  }
}

const result = { dist, sessions, memory: await memoryRun() };
if (measureEviction) result.idleEviction = { evicted: await evictionRun(EVICT_IDLE_MINUTES), control: await evictionRun(undefined) };
if (countFsync && spawnSync('strace', ['-V']).status === 0) {
  const messages = 1000;
  const idle = await fsyncRun(0);
  const busy = await fsyncRun(messages);
  result.fsync = { messages, callsAtStartAndStop: idle, callsWithMessages: busy, perMessage: round((busy - idle) / messages, 3) };
}
console.log(JSON.stringify(result, null, 2));
