import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '../support/fake-openai-server.js';
import type { FakeLlmServer } from '../support/fake-llm-common.js';
import { smallWindowConfig } from '../context/context-gateway.js';
import { placeAnswer } from '../../source/tui/store/command-answers.js';
import { openApp, type AppHarness } from './support/app-harness.js';

let harness: AppHarness | undefined;
let llm: FakeLlmServer | undefined;
afterEach(async () => {
  await harness?.stop();
  await llm?.close();
  harness = undefined;
  llm = undefined;
});

const LONG = { timeout: 15_000 };
const count = (text: string, part: string | RegExp): number => text.split(part).length - 1;

async function chatAfterOneTurn(): Promise<AppHarness> {
  llm = await startFakeOpenAI();
  llm.reply({ text: 'first answer' });
  llm.setDefault({ error: 'server' });
  harness = await openApp([], { cols: 100, rows: 50 }, { config: smallWindowConfig(llm), core: { env: process.env } });
  const h = harness;
  await expect.poll(() => h.frame(), LONG).toContain('● open');
  h.type('hello\r');
  await expect.poll(() => h.frame(), LONG).toContain('first answer');
  return h;
}

describe('each command answers once, under its echo', () => {
  it('/status prints session, model and context once, in one format', async () => {
    const h = await chatAfterOneTurn();
    h.type('/status\r');
    await expect.poll(() => h.flat(), LONG).toContain('compact never');
    const frame = h.flat();
    expect(count(frame, /\bsession +agent:main:main/)).toBe(1);
    expect(count(frame, /\bmodel +fake\/m/)).toBe(1);
    expect(count(frame, /\bcontext +[\d.]+k \/ 8\.0k/)).toBe(1);
  });

  it('a failed /compact shows one ✗ block, with the reason and no misleading hint', async () => {
    const h = await chatAfterOneTurn();
    h.type('/compact\r');
    await expect.poll(() => h.frame(), LONG).toContain('Compaction did not happen');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const frame = h.flat();
    expect(count(frame, '✗')).toBe(1);
    expect(frame).not.toContain('is not a TUI command');
    expect(frame.indexOf('» /compact')).toBeLessThan(frame.indexOf('Compaction did not happen'));
  });

  it('/new leaves one note, and /retry says "retrying" above the failure it leads to', async () => {
    const h = await chatAfterOneTurn();
    h.type('/retry\r');
    await expect.poll(() => h.flat(), LONG).toContain('Try again with /retry');
    const frame = h.flat();
    const retrying = frame.indexOf('retrying the last message');
    expect(retrying).toBeGreaterThan(frame.indexOf('» /retry'));
    expect(retrying).toBeLessThan(frame.indexOf('failed with HTTP 500'));

    h.type('/new\r');
    await expect.poll(() => h.frame(), LONG).toContain('New session started.');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = h.flat();
    expect(count(after, 'New session started.')).toBe(1);
    expect(after).not.toMatch(/new session [0-9a-f-]{36}/);
    expect(after).not.toContain('first answer');
  });
});

describe('placeAnswer', () => {
  it('puts a late reply under its echo, after earlier answers, above what arrived meanwhile', () => {
    const log = {
      hasMore: false,
      running: false,
      items: [
        { kind: 'command' as const, id: 'command:1', text: '/retry' },
        { kind: 'error' as const, id: 'run:error:1', message: 'the retried turn failed' },
      ],
    };
    const once = placeAnswer(log, 'command:1', { kind: 'notice', id: 'answer:2', text: 'retrying the last message' });
    const twice = placeAnswer(once, 'command:1', { kind: 'notice', id: 'answer:3', text: 'second line' });
    expect(twice.items.map((i) => (i.kind === 'notice' || i.kind === 'command' ? i.text : 'failure'))).toEqual([
      '/retry',
      'retrying the last message',
      'second line',
      'failure',
    ]);
  });
});
