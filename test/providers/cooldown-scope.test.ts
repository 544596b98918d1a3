import { mkdirSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COOLDOWN_STEPS_MS, type ProviderError, type ProviderEvent } from '../../source/providers/index.js';
import { startFakeAnthropic } from '../support/fake-anthropic-server.js';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-openai-server.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { baseRequest, collect, collectUntilError, doneOf, fakeClock, makeProviders, textOf } from './helpers.js';

let state: TempState;
let pa: FakeLlmServer;
let pb: FakeLlmServer;

beforeEach(async () => {
  state = makeTempState();
  pa = await startFakeOpenAI();
  pb = await startFakeAnthropic();
});
afterEach(async () => {
  await pa.close();
  await pb.close();
  state.cleanup();
});

const config = (failover: Record<string, number> = {}) => ({
  models: {
    providers: {
      pa: { api: 'openai' as const, baseUrl: pa.baseUrl, models: { big: {}, small: {} } },
      pb: { api: 'anthropic' as const, baseUrl: pb.url, models: { m: {} } },
    },
    failover,
  },
});

function writeKey(provider: string, apiKey: string): void {
  mkdirSync(state.paths.credentials, { recursive: true, mode: 0o700 });
  writeFileSync(`${state.paths.credentials}/${provider}.json`, JSON.stringify({ apiKey }), { mode: 0o600 });
}

const env = { OLLAMA_HOST: '127.0.0.1:9' };
const chain = { fallbacks: ['pa/small', 'pb/m'] };
const modelsCalled = (server: FakeLlmServer) => server.requests.map((r) => r.body.model);
const retries = (events: ProviderEvent[]) => events.flatMap((e) => (e.type === 'retry' ? [e.reason] : []));

describe('cooldowns that fit the fault', () => {
  beforeEach(() => {
    writeKey('pa', 'key-a');
    writeKey('pb', 'key-b');
  });

  it('an overloaded model cools that model only: the same provider’s other model answers', async () => {
    const providers = makeProviders(state, config(), { env, clock: fakeClock() });
    pa.reply({ error: 'overloaded' }, { error: 'overloaded' }, { text: 'small answers' });
    const events = await collect(providers.streamTurn(baseRequest('pa/big', chain)));
    expect(textOf(events)).toBe('small answers');
    expect(modelsCalled(pa)).toEqual(['big', 'big', 'small']);
    expect(providers.cooldowns()).toMatchObject([{ scope: 'model', label: 'pa/big', kind: 'overloaded' }]);
    expect(pb.requests).toEqual([]);
  });

  it('a failed turn is one step of the ladder, however many retries it made', async () => {
    const clock = fakeClock();
    const providers = makeProviders(state, config(), { env, clock });
    pa.setDefault({ error: 'overloaded' });
    const start = clock.now();
    const { error } = await collectUntilError(providers.streamTurn(baseRequest('pa/big')));
    expect(error).toMatchObject({ kind: 'overloaded' });
    expect(pa.requests).toHaveLength(4);
    const [cooling] = providers.cooldowns();
    // The retries' waits passed on the fake clock; the cooldown is the first step from the last fault.
    expect(cooling!.until - clock.now()).toBe(COOLDOWN_STEPS_MS[0]);
    expect(cooling!.until - start).toBeLessThan(COOLDOWN_STEPS_MS[1]);
  });

  it('skipped models are reported with their true reason and when they are tried again', async () => {
    const clock = fakeClock();
    const providers = makeProviders(state, config(), { env, clock });
    pa.setDefault({ error: 'overloaded' });
    pb.setDefault({ error: 'billing' });
    await collectUntilError(providers.streamTurn(baseRequest('pa/big', { fallbacks: ['pb/m'] })));
    // Both are cooling now; the next turn skips pa/big and finds pb's key out of credit.
    const { error } = await collectUntilError(providers.streamTurn(baseRequest('pa/big', { fallbacks: ['pb/m'] })));
    const message = (error as ProviderError).message;
    expect(error).toMatchObject({ kind: 'billing' });
    expect(message).toContain('Every key for pb is cooling down: key file:default is cooling after billing, HTTP 402');
    expect(message).toContain('pa/big: overloaded');
    expect(message).not.toContain('rate_limit');
  });

  it('a billing cooldown belongs to the key’s value: a new key in the same file is used at once; reset lifts the rest', async () => {
    const providers = makeProviders(state, config(), { env, clock: fakeClock() });
    pb.reply({ error: 'billing' });
    await collectUntilError(providers.streamTurn(baseRequest('pb/m')));
    expect(providers.cooldowns()).toMatchObject([{ scope: 'key', label: 'file:default', kind: 'billing' }]);

    writeKey('pb', 'key-b-new');
    pb.reply({ text: 'new key works' });
    expect(textOf(await collect(providers.streamTurn(baseRequest('pb/m'))))).toBe('new key works');
    expect(pb.requests.at(-1)!.headers['x-api-key']).toBe('key-b-new');

    writeKey('pb', 'key-b');
    expect(providers.resetCooldowns('pb')).toMatchObject([{ label: 'file:default', kind: 'billing' }]);
    pb.reply({ text: 'old key, probed again' });
    expect(textOf(await collect(providers.streamTurn(baseRequest('pb/m'))))).toBe('old key, probed again');
  });
});

describe('slow give-ups when a fallback could answer', () => {
  beforeEach(() => {
    writeKey('pa', 'key-a');
    writeKey('pb', 'key-b');
  });

  it('a stall moves to the fallback after the first one', async () => {
    const providers = makeProviders(state, config({ idleTimeoutMs: 1000 }), { env, clock: fakeClock() });
    pa.setDefault({ hang: true });
    pb.reply({ text: 'fallback after a stall' });
    const events = await collect(providers.streamTurn(baseRequest('pa/big', { fallbacks: ['pb/m'] })));
    expect(textOf(events)).toBe('fallback after a stall');
    expect(pa.requests).toHaveLength(1);
    expect(retries(events)).toEqual(['fallback after network (stalled)']);
  });

  it('a Retry-After longer than the wait allowed with a fallback switches at once; without one it is waited out', async () => {
    const clock = fakeClock();
    const providers = makeProviders(state, config(), { env, clock });
    pa.reply({ error: 'overloaded', retryAfter: 30 });
    pb.reply({ text: 'no waiting' });
    expect(textOf(await collect(providers.streamTurn(baseRequest('pa/small', { fallbacks: ['pb/m'] }))))).toBe('no waiting');
    expect(clock.sleeps).toEqual([]);

    pb.reply({ error: 'overloaded', retryAfter: 30 }, { text: 'waited' });
    expect(textOf(await collect(providers.streamTurn(baseRequest('pb/m'))))).toBe('waited');
    expect(clock.sleeps).toEqual([30_000]);
  });

  it('models.failover sets the retries and waits', async () => {
    const clock = fakeClock();
    const providers = makeProviders(state, config({ retriesWithFallback: 0, maxRetries: 1 }), { env, clock });
    pa.setDefault({ error: 'server' });
    pb.reply({ text: 'straight away' });
    expect(textOf(await collect(providers.streamTurn(baseRequest('pa/big', { fallbacks: ['pb/m'] }))))).toBe('straight away');
    expect(pa.requests).toHaveLength(1);
    await collectUntilError(providers.streamTurn(baseRequest('pa/small')));
    expect(pa.requests).toHaveLength(3);
  });
});

describe('a request refused as invalid', () => {
  beforeEach(() => writeKey('pb', 'key-b'));
  const refused = (message: string) => ({
    status: 400,
    body: JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message } }),
  });

  it('is repaired once and sent again; the retry says what changed', async () => {
    const providers = makeProviders(state, config(), { env, clock: fakeClock() });
    pb.reply(refused('messages.1.content.0: Invalid `signature` in `thinking` block'), { text: 'healed' });
    const request = baseRequest('pb/m', {
      messages: [
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', text: 'hm', signature: 'stale' },
            { type: 'text', text: 'hello' },
          ],
        },
        { role: 'user', content: 'again' },
      ],
    });
    const events = await collect(providers.streamTurn(request));
    expect(doneOf(events).content).toEqual([{ type: 'text', text: 'healed' }]);
    expect(retries(events)).toEqual(['bad_request (HTTP 400): repaired the request (left out 1 thinking block)']);
    const sent = pb.requests[1]!.body.messages as Array<{ content: Array<{ type: string }> }>;
    expect(sent[1]!.content.map((block) => block.type)).toEqual(['text']);
  });

  it('that no repair helps ends with what is wrong and the commands that fix the history', async () => {
    const providers = makeProviders(state, config(), { env, clock: fakeClock() });
    pb.setDefault(refused('messages.0.content.0.text: too many emoji'));
    const { error } = await collectUntilError(providers.streamTurn(baseRequest('pb/m')));
    expect(pb.requests).toHaveLength(1);
    expect(error).toMatchObject({ kind: 'bad_request' });
    expect((error as ProviderError).message).toContain('(HTTP 400: invalid_request_error: messages.0.content.0.text: too many emoji)');
    expect((error as ProviderError).message).toContain('/compact rewrites the history');
    expect((error as ProviderError).message).not.toContain('model name');
  });
});
