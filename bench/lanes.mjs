// Lanes benchmark: per-message cost of routing + journal append + enqueue
// (without fsync, and the fsync cost separately), loading a 2 MB transcript,
// and 10,000 messages over 100 sessions end to end with an instant runner.
// Prints one JSON object. Run after `npm run build`.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { configSchema, statePaths } from '../dist/config/index.js';
import { routeInbound } from '../dist/routing/index.js';
import { InboundJournal, LaneQueue } from '../dist/queue/index.js';
import { SessionRegistry, loadTranscriptSync } from '../dist/sessions/index.js';

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const round = (n) => Math.round(n * 1000) / 1000;

function makeState() {
  const dir = mkdtempSync(join(tmpdir(), 'claw-bench-'));
  return { dir, paths: statePaths(dir), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

function message(i, sessions) {
  return { channel: 'telegram', accountId: 'bot', peer: { kind: 'direct', id: `u${i % sessions}` } };
}

const instantRunner = {
  async run(turn) {
    const text = `ok ${turn.messages.length}`;
    turn.session.append({ type: 'message', role: 'assistant', content: [{ type: 'text', text }], stopReason: 'stop' });
    return { status: 'replied', text };
  },
};

function setup(state, config, runner, onOutcome) {
  const registry = new SessionRegistry({ paths: state.paths, config });
  const lanes = new LaneQueue({
    config: config.queue,
    runner,
    openSession: (key) => registry.open(key),
    onOutcome,
    emit: () => undefined,
  });
  return { registry, lanes };
}

/**
 * routing + journal append + enqueue, one message at a time, fsync off. The
 * sample is the event-loop time the message costs (the synchronous work
 * before and after the journal write); the write itself runs on the thread pool.
 */
async function hotPath() {
  const state = makeState();
  const config = configSchema.parse({ queue: { mode: 'followup', cap: 1_000_000 } });
  const { journal } = await InboundJournal.open(join(state.dir, 'inbound.jsonl'), { fsync: false });
  const blocked = { run: () => new Promise(() => undefined) };
  const { registry, lanes } = setup(state, config, blocked, () => undefined);
  const samples = [];
  const N = 5000;
  for (let i = 0; i < N + 500; i += 1) {
    const start = performance.now();
    const route = routeInbound(message(i, 100), config);
    const pending = journal.accept({
      dedupeKey: `telegram\u0000m${i}`,
      runId: randomUUID(),
      messageId: `m${i}`,
      sessionKey: route.sessionKey,
      agentId: route.agentId,
      channel: 'telegram',
      text: `message ${i}`,
      mode: 'followup',
    });
    registry.ensure(route.sessionKey, 'telegram');
    const before = performance.now() - start;
    const record = await pending;
    const resumed = performance.now();
    lanes.enqueue({
      seq: record.seq,
      runId: record.runId,
      messageId: record.messageId,
      sessionKey: record.sessionKey,
      agentId: record.agentId,
      channel: record.channel,
      text: record.text,
      mode: record.mode,
      acceptedAt: record.at,
    });
    if (i >= 500) samples.push(before + performance.now() - resumed);
  }
  await journal.close();
  await registry.flush();
  state.cleanup();
  return { eventLoopP50Ms: round(percentile(samples, 50)), eventLoopP99Ms: round(percentile(samples, 99)), messages: N };
}

/** The durable append alone: one writer (each waits its fsync) vs 64 concurrent writers (group commit). */
async function fsyncCost() {
  const state = makeState();
  const { journal } = await InboundJournal.open(join(state.dir, 'inbound.jsonl'));
  const input = (i) => ({
    dedupeKey: `x\u0000${i}`,
    runId: `r${i}`,
    messageId: `${i}`,
    sessionKey: 'agent:main:main',
    agentId: 'main',
    channel: 'x',
    text: 'hello',
    mode: 'followup',
  });
  const serial = [];
  for (let i = 0; i < 200; i += 1) {
    const start = performance.now();
    await journal.accept(input(i));
    serial.push(performance.now() - start);
  }
  const before = { ...journal.stats };
  const start = performance.now();
  await Promise.all(Array.from({ length: 2000 }, (_, i) => journal.accept(input(10_000 + i))));
  const elapsed = performance.now() - start;
  const batches = journal.stats.batches - before.batches;
  await journal.close();
  state.cleanup();
  return {
    serialAppendP50Ms: round(percentile(serial, 50)),
    serialAppendP99Ms: round(percentile(serial, 99)),
    groupCommit: {
      concurrentAppends: 2000,
      fsyncs: batches,
      recordsPerFsync: round(2000 / batches),
      totalMs: round(elapsed),
      perMessageMs: round(elapsed / 2000),
    },
  };
}

/** Load (and validate) a ~2 MB transcript. */
function transcriptLoad() {
  const state = makeState();
  const path = join(state.dir, 't.jsonl');
  const lines = [JSON.stringify({ type: 'session', version: 1, id: 't', key: 'agent:main:main', agentId: 'main', createdAt: 1 })];
  let bytes = 0;
  let parent = null;
  for (let i = 0; bytes < 2 * 1024 * 1024; i += 1) {
    const id = `e${i}`;
    const entry =
      i % 2 === 0
        ? { id, parentId: parent, timestamp: i, type: 'message', role: 'user', content: `question ${i} `.repeat(20) }
        : {
            id,
            parentId: parent,
            timestamp: i,
            type: 'message',
            role: 'assistant',
            content: [{ type: 'text', text: `answer ${i} `.repeat(30) }],
            stopReason: 'stop',
          };
    const line = JSON.stringify(entry);
    bytes += line.length + 1;
    lines.push(line);
    parent = id;
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
  const runs = [];
  const baseline = [];
  let entries = 0;
  for (let i = 0; i < 7; i += 1) {
    let start = performance.now();
    entries = loadTranscriptSync(path).entries.length;
    runs.push(performance.now() - start);
    // Reading and JSON.parse alone: the floor any loader pays, to compare against in this run.
    start = performance.now();
    readFileSync(path, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    baseline.push(performance.now() - start);
  }
  state.cleanup();
  const medianMs = percentile(runs.slice(2), 50);
  const parseOnlyMs = percentile(baseline.slice(2), 50);
  return { bytes, entries, medianMs: round(medianMs), readAndJsonParseOnlyMs: round(parseOnlyMs), ratioToParseOnly: round(medianMs / parseOnlyMs) };
}

/** 10,000 messages over 100 sessions, journal with fsync, instant runner. */
async function endToEnd() {
  const state = makeState();
  const config = configSchema.parse({ queue: { mode: 'followup', cap: 1000 } });
  const { journal } = await InboundJournal.open(join(state.dir, 'inbound.jsonl'));
  const N = 10_000;
  let done = 0;
  let finish;
  const finished = new Promise((resolve) => {
    finish = resolve;
  });
  const { registry, lanes } = setup(state, config, instantRunner, (m, status) => {
    void journal.finish(m.seq, status);
    done += 1;
    if (done === N) finish();
  });
  const start = performance.now();
  await Promise.all(
    Array.from({ length: N }, async (_, i) => {
      const route = routeInbound(message(i, 100), config);
      const record = await journal.accept({
        dedupeKey: `telegram\u0000e${i}`,
        runId: randomUUID(),
        messageId: `e${i}`,
        sessionKey: route.sessionKey,
        agentId: route.agentId,
        channel: 'telegram',
        text: `message ${i}`,
        mode: 'followup',
      });
      registry.ensure(route.sessionKey, 'telegram');
      lanes.enqueue({
        seq: record.seq,
        runId: record.runId,
        messageId: record.messageId,
        sessionKey: record.sessionKey,
        agentId: record.agentId,
        channel: record.channel,
        text: record.text,
        mode: record.mode,
        acceptedAt: record.at,
      });
    }),
  );
  const acceptedMs = performance.now() - start;
  await finished;
  const totalMs = performance.now() - start;
  await journal.close();
  await registry.close();
  state.cleanup();
  return { messages: N, sessions: 100, acceptedMs: round(acceptedMs), totalMs: round(totalMs), messagesPerSecond: Math.round(N / (totalMs / 1000)) };
}

const result = {
  benchmark: 'lanes',
  hotPathNoFsync: await hotPath(),
  journalFsync: await fsyncCost(),
  transcriptLoad2MB: transcriptLoad(),
  endToEnd: await endToEnd(),
};
console.log(JSON.stringify(result, null, 2));
