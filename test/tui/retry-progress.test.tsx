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

describe('turn progress in the chat', () => {
  it('counts down while the provider backs off, then shows the reply', async () => {
    llm = await startFakeOpenAI();
    llm.reply({ error: 'rate_limit', retryAfter: 3 }, { text: 'Answer after the wait.' });
    harness = await openApp([], { cols: 120, rows: 30 }, { config: smallWindowConfig(llm), core: { env: process.env } });
    const h = harness;
    await expect.poll(() => h.frame()).toContain('● open');
    // The footer names the model the gateway resolved, not a placeholder.
    await expect.poll(() => h.frame().split('\n').at(-1), { timeout: 10_000 }).toContain('fake/m · think');
    h.type('hello\r');
    await expect.poll(() => h.flat(), { timeout: 5_000 }).toMatch(/fake\/m failed \(rate_limit \(HTTP 429\)\) · retry 1 in [1-4]s · \d+s · Esc abort/);
    await expect.poll(() => h.frame(), { timeout: 10_000 }).toContain('Answer after the wait.');
    expect(h.frame()).not.toContain('retry 1 in');
    expect(llm.requests).toHaveLength(2);
  });
});
