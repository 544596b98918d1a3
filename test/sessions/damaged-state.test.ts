import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configSchema } from '../../source/config/index.js';
import { SessionRegistry } from '../../source/sessions/index.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

const KEY = 'agent:main:main';
const config = configSchema.parse({});
let state: TempState | undefined;
const registries: SessionRegistry[] = [];
afterEach(async () => {
  for (const registry of registries.splice(0)) await registry.close();
  state?.cleanup();
  state = undefined;
});

function registry(warnings: string[] = []): SessionRegistry {
  const r = new SessionRegistry({ paths: state!.paths, config, warn: (m) => warnings.push(m) });
  registries.push(r);
  return r;
}

describe('damaged session state', () => {
  it.each([
    ['garbage', 'this is not json\n{"type":"message"}\n'],
    ['binary', Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7919) % 256).filter((b) => b !== 0x0a))],
  ])('a transcript whose header is %s is moved aside once and the session starts fresh', async (_name, content) => {
    state = makeTempState();
    const first = registry();
    first.ensure(KEY);
    const session = await first.open(KEY);
    const path = first.transcriptPath('main', session.sessionId);
    await first.close();
    registries.length = 0;
    writeFileSync(path, content);

    const warnings: string[] = [];
    const second = registry(warnings);
    const reopened = await second.open(KEY);
    expect(reopened.entries()).toEqual([]);
    reopened.append({ type: 'message', role: 'user', content: 'hello again', meta: { messageId: 'm1' } });
    expect(reopened.hasMessage('m1')).toBe(true);
    const aside = readdirSync(state.paths.sessionsDir('main')).filter((n) => n.includes('.corrupt.'));
    expect(aside).toHaveLength(1);
    expect(warnings.filter((w) => w.includes('no valid transcript header'))).toHaveLength(1);
    expect(warnings[0]).toContain(`moved it to ${join(state.paths.sessionsDir('main'), aside[0]!)}`);
  });

  it('a bad header does not take the valid history after it: every valid entry is salvaged into the fresh transcript and the loss is counted', async () => {
    state = makeTempState();
    const first = registry();
    first.ensure(KEY);
    const session = await first.open(KEY);
    for (let i = 1; i <= 9; i++) session.append({ type: 'message', role: 'user', content: `kept ${i}`, meta: { messageId: `m${i}` } });
    const path = first.transcriptPath('main', session.sessionId);
    await first.close();
    registries.length = 0;
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    // The header is overwritten with garbage and one line in the middle is torn.
    lines[0] = '\u0000\u0001garbage';
    lines[5] = lines[5]!.slice(0, 20);
    writeFileSync(path, `${lines.join('\n')}\n`);

    const warnings: string[] = [];
    const second = registry(warnings);
    const reopened = await second.open(KEY);
    const texts = reopened.entries().map((e) => (e.type === 'message' && e.role === 'user' ? e.content : ''));
    expect(texts).toEqual(['kept 1', 'kept 2', 'kept 3', 'kept 4', 'kept 6', 'kept 7', 'kept 8', 'kept 9']);
    expect(warnings[0]).toMatch(/with the 8 valid entries it held \(2 line\(s\) lost, the header among them\)/);
    await second.close();
    registries.length = 0;
    // The salvaged transcript is a real one: it loads again with nothing to repair.
    const third = registry();
    expect((await third.open(KEY)).entries()).toHaveLength(8);
  });

  it('sessions.json naming a missing transcript adopts the real one for that key instead of showing the session empty', async () => {
    state = makeTempState();
    const first = registry();
    first.ensure(KEY);
    const session = await first.open(KEY);
    session.append({ type: 'message', role: 'user', content: 'keep me', meta: { messageId: 'm1' } });
    const realPath = first.transcriptPath('main', session.sessionId);
    await first.close();
    registries.length = 0;
    // sessions.json now names a newer transcript that never reached the disk.
    const storePath = join(state.paths.sessionsDir('main'), 'sessions.json');
    const now = Date.now() + 60_000;
    writeFileSync(storePath, JSON.stringify({ version: 1, sessions: { [KEY]: { sessionId: 'missing', kind: 'main', createdAt: now, updatedAt: now } } }));
    rmSync(join(state.paths.sessionsDir('main'), 'missing.jsonl'), { force: true });

    const second = registry();
    expect(second.get(KEY)?.entry.sessionId).toBe(session.sessionId);
    const reopened = await second.open(KEY);
    expect(reopened.entries().map((e) => (e.type === 'message' && e.role === 'user' ? e.content : e.type))).toEqual(['keep me']);
    expect(existsSync(realPath)).toBe(true);
  });
});
