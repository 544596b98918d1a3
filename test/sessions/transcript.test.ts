import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configSchema } from '../../source/config/index.js';
import { ABORTED_TOOL_RESULT, SessionRegistry, loadTranscriptSync } from '../../source/sessions/index.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

let state: TempState;
afterEach(() => state?.cleanup());

function header(id: string): string {
  return JSON.stringify({ type: 'session', version: 1, id, key: 'agent:main:main', agentId: 'main', createdAt: 1 });
}
function line(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}

describe('transcript load and repair', () => {
  it('drops a torn last line and truncates the file to the last good entry', () => {
    state = makeTempState();
    const path = join(state.dir, 't.jsonl');
    const good = { id: 'e1', parentId: null, timestamp: 2, type: 'message', role: 'user', content: 'hello' };
    writeFileSync(path, `${header('t')}\n${line(good)}{"id":"e2","parentId":"e1","timest`);
    const loaded = loadTranscriptSync(path);
    expect(loaded.entries.map((e) => e.id)).toEqual(['e1']);
    expect(loaded.repair.tornTail).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe(`${header('t')}\n${line(good)}`);
    expect(loadTranscriptSync(path).repair.tornTail).toBe(false);
  });

  it('gives a dangling tool call a synthetic aborted result and persists it', () => {
    state = makeTempState();
    const path = join(state.dir, 't.jsonl');
    const entries = [
      { id: 'u1', parentId: null, timestamp: 2, type: 'message', role: 'user', content: 'list files' },
      {
        id: 'a1',
        parentId: 'u1',
        timestamp: 3,
        type: 'message',
        role: 'assistant',
        stopReason: 'toolUse',
        content: [
          { type: 'toolCall', id: 'c1', name: 'exec', arguments: { command: 'ls' } },
          { type: 'toolCall', id: 'c2', name: 'read', arguments: { path: 'x' } },
        ],
      },
      { id: 'r1', parentId: 'a1', timestamp: 4, type: 'message', role: 'toolResult', toolCallId: 'c1', toolName: 'exec', content: 'a b', isError: false },
      { id: 'u2', parentId: 'r1', timestamp: 5, type: 'message', role: 'user', content: 'hello?' },
    ];
    writeFileSync(path, `${header('t')}\n${entries.map(line).join('')}`);
    const loaded = loadTranscriptSync(path);
    expect(loaded.repair.danglingToolCalls).toEqual(['c2']);
    expect(loaded.entries.map((e) => e.id)).toEqual(['u1', 'a1', 'r1', 'repair-c2', 'u2']);
    const synthetic = loaded.entries[3]!;
    expect(synthetic).toMatchObject({ role: 'toolResult', toolCallId: 'c2', isError: true, content: ABORTED_TOOL_RESULT, parentId: 'r1' });
    expect(loaded.entries[4]!.parentId).toBe('repair-c2');
    const again = loadTranscriptSync(path);
    expect(again.repair.danglingToolCalls).toEqual([]);
    expect(again.entries).toEqual(loaded.entries);
  });

  it('refuses a file without a header, naming what to do', () => {
    state = makeTempState();
    const path = join(state.dir, 't.jsonl');
    writeFileSync(path, 'garbage\n');
    expect(() => loadTranscriptSync(path)).toThrow(/no valid transcript header.*\/new/);
  });
});

describe('session registry', () => {
  const config = configSchema.parse({});

  it('appends entries chained by parentId and reloads them after a restart', async () => {
    state = makeTempState();
    const registry = new SessionRegistry({ paths: state.paths, config });
    registry.ensure('agent:main:main');
    const session = await registry.open('agent:main:main');
    const [a, b] = session.append(
      { type: 'message', role: 'user', content: 'hi', meta: { messageId: 'm1' } },
      { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
    );
    expect(b!.parentId).toBe(a!.id);
    expect(session.hasMessage('m1')).toBe(true);
    expect(session.isAnswered('m1')).toBe(true);
    await registry.close();

    const reopened = new SessionRegistry({ paths: state.paths, config });
    const again = await reopened.open('agent:main:main');
    expect(again.entries().map((e) => e.id)).toEqual([a!.id, b!.id]);
    expect(again.hasMessage('m1')).toBe(true);
    await reopened.close();
  });

  it('reset starts a new sessionId and archives the old transcript', async () => {
    state = makeTempState();
    let now = 1_000;
    const registry = new SessionRegistry({ paths: state.paths, config, clock: { now: () => now } });
    const first = registry.ensure('agent:main:main').entry;
    (await registry.open('agent:main:main')).append({ type: 'message', role: 'user', content: 'old' });
    now = 2_000;
    registry.patch('agent:main:main', { model: 'openai/gpt-x' });
    const next = registry.reset('agent:main:main');
    expect(next.sessionId).not.toBe(first.sessionId);
    expect(next.model).toBe('openai/gpt-x');
    const dir = state.paths.sessionsDir('main');
    expect(readFileSync(join(dir, `${first.sessionId}.jsonl.reset.2000`), 'utf8')).toContain('"old"');
    const fresh = await registry.open('agent:main:main');
    expect(fresh.entries()).toEqual([]);
    expect(JSON.parse(readFileSync(join(dir, `${next.sessionId}.jsonl`), 'utf8').split('\n')[0]!)).toMatchObject({ previousSessionId: first.sessionId });
    await registry.close();
  });

  it('applies idle and daily resets when the next message arrives', async () => {
    state = makeTempState();
    let now = new Date(2026, 0, 1, 10, 0).getTime();
    const idle = new SessionRegistry({
      paths: state.paths,
      config: configSchema.parse({ session: { reset: { idleMinutes: 30 } } }),
      clock: { now: () => now },
    });
    const first = idle.ensure('agent:main:main').entry;
    now += 29 * 60_000;
    expect(idle.ensure('agent:main:main').reset).toBeUndefined();
    now += 30 * 60_000;
    const after = idle.ensure('agent:main:main');
    expect(after.reset).toBe('idle');
    expect(after.entry.sessionId).not.toBe(first.sessionId);
    await idle.close();

    const daily = new SessionRegistry({
      paths: state.paths,
      config: configSchema.parse({ session: { reset: { daily: '04:00' } } }),
      clock: { now: () => now },
    });
    daily.ensure('agent:main:telegram:direct:1');
    now = new Date(2026, 0, 2, 3, 59).getTime();
    expect(daily.ensure('agent:main:telegram:direct:1').reset).toBeUndefined();
    now = new Date(2026, 0, 2, 4, 1).getTime();
    expect(daily.ensure('agent:main:telegram:direct:1').reset).toBe('daily');
    await daily.close();
  });

  it('a transcript that a crash left without its header line is started afresh', async () => {
    state = makeTempState();
    const registry = new SessionRegistry({ paths: state.paths, config });
    const { sessionId } = registry.ensure('agent:main:main').entry;
    await registry.flush();
    const path = join(state.paths.sessionsDir('main'), `${sessionId}.jsonl`);
    writeFileSync(path, '{"type":"session","ver');
    const session = await registry.open('agent:main:main');
    expect(session.entries()).toEqual([]);
    session.append({ type: 'message', role: 'user', content: 'works' });
    await registry.close();
    expect(loadTranscriptSync(path).entries).toHaveLength(1);
  });

  it('rejects malformed keys and unknown agents with the valid shapes', () => {
    state = makeTempState();
    const registry = new SessionRegistry({ paths: state.paths, config });
    expect(() => registry.ensure('nope')).toThrow(/not a session key\. Valid shapes: agent:<agentId>:main/);
    expect(() => registry.ensure('agent:ghost:main')).toThrow(/Unknown agent "ghost".*agents\.list/);
    expect(() => registry.require('agent:main:main')).toThrow(/claw sessions/);
  });

  it('history pages backwards with beforeId, newest last', async () => {
    state = makeTempState();
    const registry = new SessionRegistry({ paths: state.paths, config });
    registry.ensure('agent:main:main');
    const session = await registry.open('agent:main:main');
    const stamped = session.append(...Array.from({ length: 7 }, (_, i) => ({ type: 'message' as const, role: 'user' as const, content: `m${i}` })));
    const page1 = await registry.history('agent:main:main', undefined, 3);
    expect(page1.entries.map((e) => (e as { content: string }).content)).toEqual(['m4', 'm5', 'm6']);
    expect(page1.hasMore).toBe(true);
    const page3 = await registry.history('agent:main:main', stamped[1]!.id, 3);
    expect(page3.entries.map((e) => (e as { content: string }).content)).toEqual(['m0']);
    expect(page3.hasMore).toBe(false);
    await expect(registry.history('agent:main:main', 'missing', 3)).rejects.toThrow(/No entry "missing"/);
    await registry.close();
  });

  it('a torn line appended after a crash is dropped when the session opens', async () => {
    state = makeTempState();
    const registry = new SessionRegistry({ paths: state.paths, config });
    const { sessionId } = registry.ensure('agent:main:main').entry;
    (await registry.open('agent:main:main')).append({ type: 'message', role: 'user', content: 'kept' });
    await registry.close();
    appendFileSync(join(state.paths.sessionsDir('main'), `${sessionId}.jsonl`), '{"id":"torn","par');
    const reopened = new SessionRegistry({ paths: state.paths, config });
    const session = await reopened.open('agent:main:main');
    expect(session.entries().map((e) => (e as { content: string }).content)).toEqual(['kept']);
    expect(reopened.repairs[0]?.repair.tornTail).toBe(true);
    session.append({ type: 'message', role: 'user', content: 'after' });
    await reopened.close();
    expect(loadTranscriptSync(join(state.paths.sessionsDir('main'), `${sessionId}.jsonl`)).entries).toHaveLength(2);
  });
});
