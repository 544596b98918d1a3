import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeFileOps } from '../../source/config/index.js';
import { SessionStore, type SessionEntry } from '../../source/sessions/index.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

let state: TempState;
afterEach(() => state?.cleanup());

function entry(sessionId: string, updatedAt = 1): SessionEntry {
  return { sessionId, kind: 'main', createdAt: 1, updatedAt, tokens: { input: 0, output: 0, context: 0 }, costUsd: 0, compactionCount: 0 };
}

describe('sessions.json store', () => {
  it('coalesces a burst of changes into few atomic writes holding the last state', async () => {
    state = makeTempState();
    const dir = state.paths.sessionsDir('main');
    const store = new SessionStore(dir);
    for (let i = 0; i < 500; i += 1) store.set(`agent:main:direct:${i}`, entry(`s${i}`, i));
    await store.flush();
    const onDisk = JSON.parse(readFileSync(join(dir, 'sessions.json'), 'utf8'));
    expect(Object.keys(onDisk.sessions)).toHaveLength(500);
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it("writes a turn's changes, spread over a few milliseconds, in one write that lands without a flush", async () => {
    state = makeTempState();
    const dir = state.paths.sessionsDir('main');
    let writes = 0;
    const store = new SessionStore(dir, () => undefined, {
      ...nodeFileOps,
      fdatasync: (fd) => {
        writes += 1;
        return nodeFileOps.fdatasync(fd);
      },
    });
    const before = writes;
    // The user's message, the reply and its usage: three changes a few milliseconds apart.
    for (let i = 1; i <= 3; i += 1) {
      store.set('agent:main:main', entry('s1', i));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    for (let i = 0; i < 100 && !existsSync(join(dir, 'sessions.json')); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(JSON.parse(readFileSync(join(dir, 'sessions.json'), 'utf8')).sessions['agent:main:main'].updatedAt).toBe(3);
    expect(writes - before).toBe(1);
    store.close();
  });

  it('a crash between temp write and rename leaves the old file current and the temp file is cleaned up', async () => {
    state = makeTempState();
    const dir = state.paths.sessionsDir('main');
    const store = new SessionStore(dir);
    store.set('agent:main:main', entry('old'));
    await store.flush();
    // What writeFileAtomic leaves behind when the process dies before rename(): a complete or partial temp file.
    const temp = join(dir, `.sessions.json.4242.deadbeef.tmp`);
    writeFileSync(temp, JSON.stringify({ version: 1, sessions: { 'agent:main:main': entry('new') } }).slice(0, 40));
    const reloaded = new SessionStore(dir);
    expect(reloaded.get('agent:main:main')?.sessionId).toBe('old');
    expect(existsSync(temp)).toBe(false);
  });

  it('adopts transcripts a crash left unnamed in sessions.json, so no message lands in a second file', async () => {
    state = makeTempState();
    const dir = state.paths.sessionsDir('main');
    const store = new SessionStore(dir);
    store.set('agent:main:main', { ...entry('old'), model: 'fake/m' });
    await store.flush();
    const header = (id: string, key: string, createdAt: number) => `${JSON.stringify({ type: 'session', version: 1, id, key, agentId: 'main', createdAt })}\n`;
    // Written after the last sessions.json write, then the process was killed.
    writeFileSync(join(dir, 'newer.jsonl'), header('newer', 'agent:main:main', 5));
    writeFileSync(join(dir, 'orphan.jsonl'), header('orphan', 'agent:main:tui:direct:op', 7));
    writeFileSync(join(dir, 'older.jsonl'), header('older', 'agent:main:tui:direct:op', 3));
    const reloaded = new SessionStore(dir);
    expect(reloaded.get('agent:main:main')).toMatchObject({ sessionId: 'newer', model: 'fake/m' });
    expect(reloaded.get('agent:main:tui:direct:op')).toMatchObject({ sessionId: 'orphan', kind: 'direct' });
    await reloaded.flush();
    expect(new SessionStore(dir).get('agent:main:tui:direct:op')?.sessionId).toBe('orphan');
  });

  it('a sessions.json truncated to 0 bytes is set aside and rebuilt from transcript headers', async () => {
    state = makeTempState();
    const dir = state.paths.sessionsDir('main');
    const store = new SessionStore(dir);
    store.set('agent:main:main', entry('s1'));
    await store.flush();
    writeFileSync(
      join(dir, 's1.jsonl'),
      `${JSON.stringify({ type: 'session', version: 1, id: 's1', key: 'agent:main:main', agentId: 'main', createdAt: 5 })}\n`,
    );
    writeFileSync(join(dir, 'sessions.json'), '');
    const warnings: string[] = [];
    const rebuilt = new SessionStore(dir, (m) => warnings.push(m));
    expect(rebuilt.get('agent:main:main')?.sessionId).toBe('s1');
    expect(warnings.join()).toMatch(/unreadable.*rebuilt/);
    expect(readdirSync(dir).some((n) => n.startsWith('sessions.json.corrupt.'))).toBe(true);
    await rebuilt.flush();
    expect(JSON.parse(readFileSync(join(dir, 'sessions.json'), 'utf8')).sessions['agent:main:main'].sessionId).toBe('s1');
  });
});
