import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '../support/fake-openai-server.js';
import type { FakeLlmServer } from '../support/fake-llm-common.js';
import { smallWindowConfig } from '../context/context-gateway.js';
import { openApp, type AppHarness } from './support/app-harness.js';

let harness: AppHarness | undefined;
let llm: FakeLlmServer | undefined;
afterEach(async () => {
  await harness?.stop();
  await llm?.close();
  harness = undefined;
  llm = undefined;
});

const KEY = 'agent:main:main';
/** A turn through the fake model can take seconds on a loaded machine. */
const LONG = { timeout: 15_000 };
const footer = (h: AppHarness): string => h.frame().split('\n').at(-1) ?? '';

describe('context numbers in the footer', () => {
  it('are real on a freshly attached client, before any turn', async () => {
    llm = await startFakeOpenAI();
    harness = await openApp([], { cols: 120, rows: 30 }, { config: smallWindowConfig(llm), core: { env: process.env } });
    await expect.poll(() => harness!.store.getState().context[KEY]?.window, LONG).toBe(8_000);
    await expect.poll(() => footer(harness!)).toMatch(/ [\d.]+k\/8\.0k tok/);
    expect(footer(harness)).not.toMatch(/ 0 tok/);
  });

  it('follow /new at once instead of keeping the old session numbers', async () => {
    llm = await startFakeOpenAI();
    llm.setDefault({ text: `A long answer: ${'words and more words '.repeat(200)}`, usage: { input: 3_000, output: 900 } });
    harness = await openApp([], { cols: 120, rows: 30 }, { config: smallWindowConfig(llm), core: { env: process.env } });
    const h = harness;
    await expect.poll(() => h.store.getState().context[KEY]?.window, LONG).toBe(8_000);
    h.type('Tell me everything.\r');
    await expect.poll(() => h.frame(), LONG).toContain('words and more words');
    await expect.poll(() => h.store.getState().context[KEY]?.used ?? 0, LONG).toBeGreaterThan(3_000);
    const busy = h.store.getState().context[KEY]!.used;
    h.type('/new\r');
    await expect.poll(() => h.frame(), LONG).toContain('New session started');
    await expect.poll(() => h.store.getState().context[KEY]?.used ?? busy, LONG).toBeLessThan(busy - 1_000);
    // The store changes before Ink draws it: on a loaded machine the frame read at once can still be the one in between.
    await expect.poll(() => footer(h)).toContain('/8.0k tok');
  });
});
