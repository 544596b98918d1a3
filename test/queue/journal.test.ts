import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeFileOps } from '../../source/config/index.js';
import { InboundJournal, type AcceptInput } from '../../source/queue/index.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

let state: TempState;
let journal: InboundJournal | undefined;
afterEach(async () => {
  await journal?.close();
  journal = undefined;
  state?.cleanup();
});

function input(id: string, sessionKey = 'agent:main:main'): AcceptInput {
  return { dedupeKey: `tui\u0000${id}`, runId: `run-${id}`, messageId: id, sessionKey, agentId: 'main', channel: 'tui', text: `text ${id}`, mode: 'followup' };
}

describe('inbound journal', () => {
  it('keeps accepted messages durable and returns the unfinished ones in order after a restart', async () => {
    state = makeTempState();
    const path = join(state.dir, 'queue', 'inbound.jsonl');
    ({ journal } = await InboundJournal.open(path));
    const records = await Promise.all(['a', 'b', 'c', 'd'].map((id) => journal!.accept(input(id))));
    expect(records.map((r) => r.seq)).toEqual([1, 2, 3, 4]);
    await journal.finish(2, 'replied');
    await journal.finish(2, 'failed', { reason: 'second outcome is ignored' });
    await journal.close();
    const reopened = await InboundJournal.open(path);
    journal = reopened.journal;
    expect(reopened.unfinished.map((r) => r.messageId)).toEqual(['a', 'c', 'd']);
    const outcomes = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((r) => r.t === 'outcome');
    expect(outcomes).toEqual([expect.objectContaining({ seq: 2, status: 'replied' })]);
    expect((await journal.accept(input('e'))).seq).toBe(5);
  });

  it('dedupes by (channel, messageId) for the window, across restarts', async () => {
    state = makeTempState();
    let now = 1_000_000;
    const path = join(state.dir, 'inbound.jsonl');
    ({ journal } = await InboundJournal.open(path, { clock: { now: () => now } }));
    await journal.accept(input('x'));
    expect(journal.lookup('tui\u0000x')?.runId).toBe('run-x');
    expect(journal.lookup('telegram\u0000x')).toBeUndefined();
    await journal.close();
    ({ journal } = await InboundJournal.open(path, { clock: { now: () => now } }));
    expect(journal.lookup('tui\u0000x')?.runId).toBe('run-x');
    now += 5 * 60_000 + 1;
    expect(journal.lookup('tui\u0000x')).toBeUndefined();
  });

  it('group-commits concurrent appends into fewer fsyncs', async () => {
    state = makeTempState();
    ({ journal } = await InboundJournal.open(join(state.dir, 'inbound.jsonl')));
    await Promise.all(Array.from({ length: 200 }, (_, i) => journal!.accept(input(`m${i}`))));
    expect(journal.stats.records).toBe(200);
    expect(journal.stats.batches).toBeLessThan(200);
  });

  it('syncs an outcome with the next acceptance, or on its own soon after, never making a sender wait for it', async () => {
    state = makeTempState();
    const path = join(state.dir, 'inbound.jsonl');
    let syncs = 0;
    const fs = {
      ...nodeFileOps,
      fdatasync: (fd: number) => {
        syncs += 1;
        return nodeFileOps.fdatasync(fd);
      },
    };
    ({ journal } = await InboundJournal.open(path, { fs }));
    await journal.accept(input('a'));
    expect(syncs).toBe(1);
    await journal.finish(1, 'replied');
    // Written (a killed process keeps it), not yet synced.
    expect(readFileSync(path, 'utf8')).toContain('"t":"outcome"');
    expect(syncs).toBe(1);
    await journal.accept(input('b'));
    expect(syncs).toBe(2);
    await journal.finish(2, 'replied');
    for (let i = 0; i < 200 && syncs < 3; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(syncs).toBe(3);
    await journal.accept(input('c'));
    await journal.finish(3, 'failed', { reason: 'x' });
    await journal.close();
    journal = undefined;
    expect(syncs).toBe(5);
    const reopened = await InboundJournal.open(path);
    journal = reopened.journal;
    expect(reopened.unfinished).toEqual([]);
  });

  it('drops a torn last record on open', async () => {
    state = makeTempState();
    const path = join(state.dir, 'inbound.jsonl');
    ({ journal } = await InboundJournal.open(path));
    await journal.accept(input('a'));
    await journal.close();
    appendFileSync(path, '{"t":"accepted","seq":2,"at":1,"dedu');
    const reopened = await InboundJournal.open(path);
    journal = reopened.journal;
    expect(reopened.unfinished.map((r) => r.messageId)).toEqual(['a']);
    expect(readFileSync(path, 'utf8').endsWith('\n')).toBe(true);
  });

  it('compacts a long file down to unfinished and recent records', async () => {
    state = makeTempState();
    let now = 0;
    const path = join(state.dir, 'inbound.jsonl');
    ({ journal } = await InboundJournal.open(path, { clock: { now: () => now }, fsync: false }));
    for (let i = 0; i < 30; i += 1) {
      const record = await journal.accept(input(`m${i}`));
      if (i % 10 !== 0) await journal.finish(record.seq, 'replied');
    }
    await journal.close();
    now = 10 * 60_000;
    const reopened = await InboundJournal.open(path, { clock: { now: () => now }, compactAbove: 10 });
    journal = reopened.journal;
    expect(reopened.unfinished.map((r) => r.messageId)).toEqual(['m0', 'm10', 'm20']);
    expect(readFileSync(path, 'utf8').trim().split('\n').length).toBeLessThanOrEqual(4);
    expect((await journal.accept(input('next'))).seq).toBe(31);
  });
});

describe('a lost journal', () => {
  it('rebuilds its dedupe memory from the transcripts, so a re-sent message is still a duplicate', async () => {
    const { configSchema } = await import('../../source/config/index.js');
    const { SessionRegistry } = await import('../../source/sessions/index.js');
    state = makeTempState();
    const path = join(state.dir, 'queue', 'inbound.jsonl');
    const registry = new SessionRegistry({ paths: state.paths, config: configSchema.parse({}) });
    registry.ensure('agent:main:main');
    const session = await registry.open('agent:main:main');
    session.append({ type: 'message', role: 'user', content: 'hi', meta: { channel: 'tui', messageId: 'k1' } });
    mkdirSync(dirname(path), { recursive: true });
    appendFileSync(path, 'garbage that is not a record\n');
    const opened = await InboundJournal.open(path);
    journal = opened.journal;
    expect(opened.lost).toBe(true);
    expect(journal.remember(await registry.receivedSince(Date.now() - 5 * 60_000))).toBe(1);
    expect(journal.lookup('tui\u0000k1')).toMatchObject({ sessionKey: 'agent:main:main' });
    expect(journal.lookup('tui\u0000other')).toBeUndefined();
    await registry.close();
    await journal.close();
    const again = await InboundJournal.open(path);
    journal = again.journal;
    expect(again.lost).toBe(false);
  });
});
