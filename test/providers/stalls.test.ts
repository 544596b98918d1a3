import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic } from '../support/fake-anthropic-server.js';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-openai-server.js';
import { ManualClock } from '../support/manual-clock.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { defaultFailoverPolicy, type ProviderEvent, type TurnRequest } from '../../source/providers/index.js';
import { baseRequest, collect, collectUntilError, fakeClock, makeProviders, textOf } from './helpers.js';

let state: TempState;
let openai: FakeLlmServer;
let anthropic: FakeLlmServer;

beforeEach(async () => {
  state = makeTempState();
  openai = await startFakeOpenAI();
  anthropic = await startFakeAnthropic();
});
afterEach(async () => {
  await openai.close();
  await anthropic.close();
  state.cleanup();
});

const config = () => ({
  models: {
    providers: {
      main: { api: 'openai' as const, baseUrl: openai.baseUrl, apiKeyEnv: 'MAIN_KEY', models: { big: {} } },
      anthropic: { baseUrl: anthropic.url },
    },
  },
});
const env = { MAIN_KEY: 'key-env', ANTHROPIC_API_KEY: 'key-ant', OLLAMA_HOST: '127.0.0.1:9' };

/** A turn slot that records when failover gives it up and takes it back. */
function recordingSlot(log: string[]): Pick<TurnRequest, 'outsideSlot'> {
  return {
    outsideSlot: async <T>(wait: () => Promise<T>): Promise<T> => {
      log.push('release');
      try {
        return await wait();
      } finally {
        log.push('reacquire');
      }
    },
  };
}

async function consume(stream: AsyncIterable<ProviderEvent>, log: string[]): Promise<void> {
  for await (const event of stream) log.push(event.type);
}

describe('stalled providers', () => {
  it('defaults: a minute without data fails an attempt, and a keep-alive-only stall is retried once', () => {
    expect(defaultFailoverPolicy).toMatchObject({ idleTimeoutMs: 60_000, keepAliveRetries: 1, maxRetries: 3 });
  });

  it('an OpenAI stream of keep-alive comments fails at the idle timeout and is retried only once', async () => {
    // Well above a busy machine's pauses; the keep-alives come every 50 ms, so they alone would never let it stall.
    const providers = makeProviders(state, config(), { env, clock: fakeClock(), policy: { idleTimeoutMs: 600 } });
    openai.setDefault({ keepAliveEveryMs: 50 });
    const { events, error } = await collectUntilError(providers.streamTurn(baseRequest('main/big')));
    expect(error).toMatchObject({ kind: 'network', keepAliveOnly: true, afterOutput: false, message: expect.stringContaining('only keep-alives') });
    expect(openai.requests).toHaveLength(2);
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(1);
  });

  it('an Anthropic stream of ping events after message_start counts the same way', async () => {
    const providers = makeProviders(state, config(), { env, clock: fakeClock(), policy: { idleTimeoutMs: 600 } });
    anthropic.reply({ keepAliveEveryMs: 50 }, { text: 'back again' });
    const events = await collect(providers.streamTurn(baseRequest('anthropic/claude-haiku-4-5')));
    expect(textOf(events)).toBe('back again');
    expect(events.find((e) => e.type === 'retry')).toMatchObject({ reason: 'network (stalled)' });

    anthropic.setDefault({ keepAliveEveryMs: 50 });
    const stalled = await collectUntilError(providers.streamTurn(baseRequest('anthropic/claude-haiku-4-5')));
    expect(stalled.error).toMatchObject({ kind: 'network', keepAliveOnly: true });
    expect(anthropic.requests).toHaveLength(4);
  });

  it('a silent stall is not a keep-alive stall: it keeps every retry of the policy', async () => {
    const providers = makeProviders(state, config(), { env, clock: fakeClock(), policy: { idleTimeoutMs: 400, maxRetries: 2 } });
    openai.setDefault({ hang: true });
    const { error } = await collectUntilError(providers.streamTurn(baseRequest('main/big')));
    expect(error).toMatchObject({ kind: 'network', keepAliveOnly: false, message: expect.stringContaining('no data from the provider') });
    expect(openai.requests).toHaveLength(3);
  });

  it('gives the turn slot up during a backoff and while an attempt is silent, and holds it again before any event', async () => {
    const clock = new ManualClock();
    const providers = makeProviders(state, config(), { env, clock, policy: { idleTimeoutMs: 60_000 } });
    const log: string[] = [];
    openai.reply({ error: 'server' }, { text: 'late', delayMs: 1000 });
    const run = consume(providers.streamTurn({ ...baseRequest('main/big'), ...recordingSlot(log) }), log);
    await openai.waitForRequests(1);
    // The backoff (750 ms with this jitter) runs outside the slot.
    await expect.poll(() => log).toEqual(['retry', 'release']);
    clock.advance(1000);
    await openai.waitForRequests(2);
    expect(log).toEqual(['retry', 'release', 'reacquire']);
    // The second attempt's first chunk takes a second; after lendAfterMs of silence the slot goes.
    clock.advance(defaultFailoverPolicy.lendAfterMs);
    await run;
    expect(log.slice(0, 6)).toEqual(['retry', 'release', 'reacquire', 'release', 'reacquire', 'text_delta']);
    expect(log.filter((entry) => entry === 'release')).toHaveLength(2);
  });

  it('keeps the slot for an attempt that answers within lendAfterMs', async () => {
    const clock = new ManualClock();
    const providers = makeProviders(state, config(), { env, clock });
    const log: string[] = [];
    openai.reply({ text: 'quick' });
    await consume(providers.streamTurn({ ...baseRequest('main/big'), ...recordingSlot(log) }), log);
    expect(log).not.toContain('release');
    expect(log).toContain('text_delta');
    expect(clock.pendingTimers()).toBe(0);
  });
});
