import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeFileAtomicSync } from '../../source/config/index.js';
import type { TranscriptEntry } from '../../source/protocol/index.js';
import { InboundJournal, type AcceptInput } from '../../source/queue/index.js';
import { loadTranscriptSync, SessionStore, TranscriptAppender, WriteProbe } from '../../source/sessions/index.js';
import { ManualClock } from '../support/manual-clock.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { failingDisk, type DiskMode } from './failing-disk.js';

let state: TempState | undefined;
const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  state?.cleanup();
  state = undefined;
});

function entry(n: number, text = `reply ${n}`): TranscriptEntry {
  return {
    id: `e${n}`,
    parentId: n > 1 ? `e${n - 1}` : null,
    timestamp: n,
    type: 'message',
    role: 'assistant',
    content: [{ type: 'text', text }],
    stopReason: 'stop',
  };
}

function transcript(): { path: string; appender: TranscriptAppender; disk: ReturnType<typeof failingDisk> } {
  state = makeTempState();
  const path = join(state.dir, 't.jsonl');
  writeFileSync(path, `${JSON.stringify({ type: 'session', version: 1, id: 't', key: 'agent:main:main', agentId: 'main', createdAt: 0 })}\n`);
  const disk = failingDisk();
  const appender = new TranscriptAppender(path, disk);
  closers.push(() => appender.close());
  return { path, appender, disk };
}

function input(id: string, text = `text ${id}`): AcceptInput {
  return {
    dedupeKey: `tui\u0000${id}`,
    runId: `run-${id}`,
    messageId: id,
    sessionKey: 'agent:main:main',
    agentId: 'main',
    channel: 'tui',
    text,
    mode: 'followup',
  };
}

describe.each<DiskMode>(['full', 'short'])('a disk that fails with %s writes', (mode) => {
  it('a transcript append fails whole, leaves no fragment, and works again once space returns', async () => {
    const { path, appender, disk } = transcript();
    appender.append([entry(1)]);
    const before = statSync(path).size;
    disk.mode = mode;
    expect(() => appender.append([entry(2, 'x'.repeat(60_000))])).toThrow(/could not be written \(ENOSPC\); free disk space/);
    expect(statSync(path).size).toBe(before);
    disk.mode = 'ok';
    appender.append([entry(3)]);
    await appender.flush();
    const loaded = loadTranscriptSync(path);
    expect(loaded.entries.map((e) => e.id)).toEqual(['e1', 'e3']);
    expect(loaded.repair).toEqual({ tornTail: false, skippedLines: 0, danglingToolCalls: [] });
  });

  it('the journal acknowledges nothing that is not whole on disk, and the next message does not land on a fragment', async () => {
    state = makeTempState();
    const path = join(state.dir, 'queue', 'inbound.jsonl');
    const disk = failingDisk();
    const { journal } = await InboundJournal.open(path, { fs: disk });
    closers.push(() => journal.close().catch(() => undefined));
    await journal.accept(input('a'));
    const good = statSync(path).size;
    disk.mode = mode;
    const refused = journal.accept(input('big', 'y'.repeat(61_000)));
    await expect(refused).rejects.toThrow(/could not be written \(ENOSPC\); nothing in this write was acknowledged/);
    // As the low-space pre-check answers: unavailable, retryable — not an internal error.
    await expect(refused).rejects.toMatchObject({ code: 'unavailable', retryable: true });
    expect(statSync(path).size).toBe(good);
    expect(journal.lookup('tui\u0000big')).toBeUndefined();
    disk.mode = 'ok';
    await journal.accept(input('b'));
    await journal.close();
    const lines = readFileSync(path, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { messageId?: string });
    expect(lines.map((l) => l.messageId)).toEqual(['a', 'b']);
    const reopened = await InboundJournal.open(path);
    closers.push(() => reopened.journal.close());
    expect(reopened.unfinished.map((r) => r.messageId)).toEqual(['a', 'b']);
  });
});

describe('durable writes', () => {
  it('a short write is continued to the end rather than ignored', async () => {
    const { path, appender, disk } = transcript();
    disk.mode = 'trickle';
    appender.append([entry(1, 'z'.repeat(500)), entry(2)]);
    await appender.flush();
    expect(loadTranscriptSync(path).entries.map((e) => e.id)).toEqual(['e1', 'e2']);
    state = state!;
    const file = join(state.dir, 'atomic.json');
    writeFileAtomicSync(file, 'q'.repeat(300), 0o600, disk);
    expect(readFileSync(file, 'utf8')).toBe('q'.repeat(300));
  });

  it('an outcome the full disk refused is written with the next record once space returns', async () => {
    state = makeTempState();
    const path = join(state.dir, 'inbound.jsonl');
    const disk = failingDisk();
    const { journal } = await InboundJournal.open(path, { fs: disk });
    closers.push(() => journal.close().catch(() => undefined));
    const a = await journal.accept(input('a'));
    disk.mode = 'full';
    await expect(journal.finish(a.seq, 'replied')).rejects.toThrow(/ENOSPC/);
    await expect(journal.flush()).rejects.toThrow(/1 outcome record\(s\) are not on disk/);
    disk.mode = 'ok';
    await journal.accept(input('b'));
    await journal.close();
    const reopened = await InboundJournal.open(path);
    closers.push(() => reopened.journal.close());
    expect(reopened.unfinished.map((r) => r.messageId)).toEqual(['b']);
  });

  it('the journal path being a directory names the file and the fix', async () => {
    state = makeTempState();
    const path = join(state.dir, 'queue', 'inbound.jsonl');
    writeFileAtomicSync(join(path, 'x'), '');
    await expect(InboundJournal.open(path)).rejects.toThrow(`The inbound journal ${path} is a directory, not a file; move it aside`);
  });

  it('sessions.json that cannot be written backs off and is reported once per minute, not once per try', async () => {
    state = makeTempState();
    const disk = failingDisk();
    const warnings: string[] = [];
    const store = new SessionStore(state.paths.sessionsDir('main'), (m) => warnings.push(m), disk);
    closers.push(() => store.close());
    disk.mode = 'full';
    const entry = {
      sessionId: 's',
      kind: 'main' as const,
      createdAt: 1,
      updatedAt: 1,
      tokens: { input: 0, output: 0, context: 0 },
      costUsd: 0,
      compactionCount: 0,
    };
    for (let i = 0; i < 200; i += 1) store.set(`agent:main:k${i}`, { ...entry, updatedAt: i });
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(store.failing).toBe(true);
    // 250 ms, 500 ms, 1 s: a handful of attempts in 1.2 s, and one log line.
    expect(disk.refused).toBeGreaterThanOrEqual(2);
    expect(disk.refused).toBeLessThanOrEqual(4);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/could not write .*sessions\.json \(ENOSPC; 1 failure\(s\) since the last report\); retrying with backoff/);
    disk.mode = 'ok';
    await store.flush();
    expect(store.failing).toBe(false);
    expect(Object.keys(JSON.parse(readFileSync(store.path, 'utf8')).sessions)).toHaveLength(200);
    expect(warnings.at(-1)).toMatch(/is written again after \d failed attempt/);
  });

  it('the write probe says not writable while writes fail and recovers on its own when space returns', async () => {
    state = makeTempState();
    const disk = failingDisk();
    const clock = new ManualClock();
    const dirs = [state.paths.sessionsDir('main'), join(state.dir, 'queue')];
    for (const dir of dirs) writeFileAtomicSync(join(dir, 'keep'), '');
    const probe = new WriteProbe({ dirs: () => dirs, fs: disk, clock });
    closers.push(() => probe.stop());
    expect(await probe.check()).toEqual({ ok: true });
    expect(probe.refusal()).toBeUndefined();
    disk.mode = 'full';
    expect(await probe.check()).toEqual({ ok: false, dir: dirs[0], reason: 'ENOSPC' });
    expect(probe.refusal()).toMatch(/^Not accepted: the state dir cannot be written \(.*: ENOSPC\)\. Free disk space/);
    disk.mode = 'ok';
    // No one asks again: the probe's own re-check timer notices the space.
    expect(clock.pendingTimers()).toBe(1);
    clock.advance(1000);
    await vi.waitFor(() => expect(probe.status()).toEqual({ ok: true }), { timeout: 5000, interval: 10 });
    expect(clock.pendingTimers()).toBe(0);
  });
});
