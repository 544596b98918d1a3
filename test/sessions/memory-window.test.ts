import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { configSchema } from '../../source/config/index.js';
import { SessionRegistry } from '../../source/sessions/index.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

const KEY = 'agent:main:main';
let state: TempState | undefined;
let registry: SessionRegistry | undefined;
afterEach(async () => {
  await registry?.close();
  registry = undefined;
  state?.cleanup();
  state = undefined;
});

describe('the in-memory window of a transcript', () => {
  it('keeps a bounded number of entries in memory and still answers for the whole history from disk', async () => {
    state = makeTempState();
    registry = new SessionRegistry({ paths: state.paths, config: configSchema.parse({}) });
    registry.ensure(KEY);
    const session = await registry.open(KEY);
    const held = session.entries();
    for (let i = 0; i < 1000; i += 1) {
      session.append({ type: 'message', role: 'user', content: `u${i}`, meta: { messageId: `m${i}` } });
      session.append({ type: 'message', role: 'assistant', content: [{ type: 'text', text: `a${i}` }], stopReason: 'stop' });
    }
    expect(session.inMemory()).toBeLessThanOrEqual(32);
    // An array a caller already held is not cut under it, and keeps growing while held.
    expect(held).toHaveLength(2000);
    const all = session.entries();
    expect(all).toHaveLength(2000);
    expect(all.slice(0, 3).map((e) => (e.type === 'message' && e.role === 'user' ? e.content : 'a'))).toEqual(['u0', 'a', 'u1']);
    for (let i = 1; i < all.length; i += 1) expect(all[i]!.parentId).toBe(all[i - 1]!.id);
    expect(session.isAnswered('m0')).toBe(true);
    expect(session.hasMessage('m3')).toBe(true);
    session.append({ type: 'message', role: 'user', content: 'last', meta: { messageId: 'last' } });
    expect(session.isAnswered('last')).toBe(false);
    const page = await registry.history(KEY, all[10]!.id, 5);
    expect(page.entries.map((e) => e.id)).toEqual(all.slice(5, 10).map((e) => e.id));
    expect(page.hasMore).toBe(true);

    await registry.close();
    registry = new SessionRegistry({ paths: state.paths, config: configSchema.parse({}) });
    const reopened = await registry.open(KEY);
    expect(reopened.inMemory()).toBeLessThanOrEqual(32);
    expect(reopened.entries()).toHaveLength(2001);
    expect(reopened.isAnswered('m999')).toBe(true);
  });

  it('holds the full history between the turns of a conversation, through a garbage collection', async () => {
    state = makeTempState();
    registry = new SessionRegistry({ paths: state.paths, config: configSchema.parse({}) });
    registry.ensure(KEY);
    const session = await registry.open(KEY);
    for (let i = 0; i < 100; i += 1) session.append({ type: 'message', role: 'user', content: `u${i}` });
    await registry.close();
    registry = new SessionRegistry({ paths: state.paths, config: configSchema.parse({}) });
    const reopened = await registry.open(KEY);
    // The first turn reads the older entries from disk; the next one, after a full collection, reuses them.
    const ids = reopened.entries().map((entry) => entry.id);
    const marker = new WeakRef(reopened.entries()[0]!);
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    // WeakRef targets live at least until the current job ends.
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc();
    expect(marker.deref()).toBeDefined();
    expect(reopened.entries()[0]).toBe(marker.deref());
    expect(reopened.entries().map((entry) => entry.id)).toEqual(ids);
  });

  it('with many busy sessions only the most recently used hold their full history; the others let it go at a collection', async () => {
    state = makeTempState();
    registry = new SessionRegistry({ paths: state.paths, config: configSchema.parse({}) });
    const keys = Array.from({ length: 40 }, (_, i) => `agent:main:bench:direct:s${i}`);
    for (const key of keys) {
      registry.ensure(key);
      const session = await registry.open(key);
      for (let i = 0; i < 60; i += 1) session.append({ type: 'message', role: 'user', content: `${key} ${i}` });
    }
    await registry.close();
    registry = new SessionRegistry({ paths: state.paths, config: configSchema.parse({}) });
    const markers: Array<WeakRef<object>> = [];
    // Every session asks for its whole history, as each turn does, in turn.
    for (const key of keys) markers.push(new WeakRef((await registry.open(key)).entries()[0]!));
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc();
    const kept = markers.map((marker) => marker.deref() !== undefined);
    // The 24 most recent stay held; the 16 first were let go (and read again from disk when next asked).
    expect(kept.slice(-24).every(Boolean)).toBe(true);
    expect(kept.slice(0, 16).filter(Boolean)).toEqual([]);
    expect((await registry.open(keys[0]!)).entries()).toHaveLength(60);
  });
});
