import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeSessionMemory } from '../../source/memory/index.js';
import { memoryFixture, type MemoryFixture } from './memory-fixture.js';

let fx: MemoryFixture;
afterEach(async () => {
  await fx.cleanup();
});

describe('writeSessionMemory', () => {
  it('saves the recent conversation as a dated note that search finds', async () => {
    fx = memoryFixture();
    const now = new Date(2026, 2, 14, 9, 5);
    const messages = [
      { role: 'user' as const, text: 'Plan the Lisbon offsite for April' },
      { role: 'assistant' as const, text: 'Booked venue Casa Azul for 12-14 April, budget EUR 9,000.' },
    ];
    const path = writeSessionMemory({ workspace: fx.workspace, messages, sessionKey: 'agent:main:main', now });
    expect(path).toBe('memory/2026-03-14-plan-the-lisbon-offsite-for.md');
    const text = readFileSync(join(fx.workspace, path!), 'utf8');
    expect(text).toContain('Session: agent:main:main');
    expect(text).toContain('Casa Azul');

    const again = writeSessionMemory({ workspace: fx.workspace, messages, now });
    expect(again).toBe('memory/2026-03-14-plan-the-lisbon-offsite-for-2.md');

    const index = fx.open();
    await index.sync();
    expect((await index.search({ query: 'Casa Azul venue' })).results[0]?.path).toMatch(/^memory\/2026-03-14-plan-the-lisbon/);
  });

  it('keeps only the most recent messages and skips empty conversations', () => {
    fx = memoryFixture();
    const now = new Date(2026, 0, 2, 23, 59);
    expect(writeSessionMemory({ workspace: fx.workspace, messages: [], now })).toBeUndefined();
    const messages = Array.from({ length: 30 }, (_, i) => ({ role: (i % 2 ? 'assistant' : 'user') as 'user' | 'assistant', text: `message number ${i}` }));
    const path = writeSessionMemory({ workspace: fx.workspace, messages, now, maxMessages: 4 })!;
    const text = readFileSync(join(fx.workspace, path), 'utf8');
    expect(text).not.toContain('message number 25');
    expect(text).toContain('message number 26');
    expect(text).toContain('message number 29');
  });

  it('falls back to a time slug when the first message has no latin words', () => {
    fx = memoryFixture();
    const path = writeSessionMemory({ workspace: fx.workspace, messages: [{ role: 'user', text: '你好' }], now: new Date(2026, 0, 2, 8, 30) });
    expect(path).toBe('memory/2026-01-02-session-0830.md');
  });
});
