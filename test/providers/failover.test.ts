import { mkdirSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic } from '../support/fake-anthropic-server.js';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-openai-server.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { BILLING_PROBE_MS, COOLDOWN_STEPS_MS, ProviderError, SERVER_COOLDOWN_MS, type ProviderEvent } from '../../source/providers/index.js';
import { systemClock } from '../../source/config/index.js';
import { baseRequest, collect, collectUntilError, doneOf, fakeClock, makeProviders, textOf } from './helpers.js';

let state: TempState;
let primary: FakeLlmServer;
let backup: FakeLlmServer;

beforeEach(async () => {
  state = makeTempState();
  primary = await startFakeOpenAI();
  backup = await startFakeAnthropic();
});
afterEach(async () => {
  await primary.close();
  await backup.close();
  state.cleanup();
});

function writeCredentials(provider: string, content: unknown, mode = 0o600): void {
  mkdirSync(state.paths.credentials, { recursive: true, mode: 0o700 });
  writeFileSync(`${state.paths.credentials}/${provider}.json`, JSON.stringify(content), { mode });
}

const config = () => ({
  models: {
    providers: {
      main: { api: 'openai' as const, baseUrl: primary.baseUrl, apiKeyEnv: 'MAIN_KEY', models: { big: {} } },
      anthropic: { baseUrl: backup.url },
    },
  },
});
const env = { MAIN_KEY: 'key-env', ANTHROPIC_API_KEY: 'key-ant', OLLAMA_HOST: '127.0.0.1:9' };
const keysSent = (server: FakeLlmServer) => server.requests.map((r) => r.headers.authorization ?? r.headers['x-api-key']);
const retries = (events: ProviderEvent[]) => events.filter((e) => e.type === 'retry');

describe('failover', () => {
  it('rotates auth profiles on 401 and 429, then cools the failed ones down across calls', async () => {
    writeCredentials('main', {
      profiles: [
        { id: 'work', apiKey: 'key-work' },
        { id: 'home', apiKey: 'key-home' },
      ],
    });
    const clock = fakeClock();
    const providers = makeProviders(state, config(), { env, clock });
    primary.reply({ error: 'auth' }, { error: 'rate_limit', retryAfter: 5 }, { text: 'third time lucky' });

    const events = await collect(providers.streamTurn(baseRequest('main/big')));
    expect(textOf(events)).toBe('third time lucky');
    expect(keysSent(primary)).toEqual(['Bearer key-env', 'Bearer key-work', 'Bearer key-home']);
    expect(doneOf(events).profile).toBe('file:home');
    expect(retries(events).map((e) => (e.type === 'retry' ? [e.profile, e.reason, e.delayMs] : []))).toEqual([
      ['file:work', 'auth (HTTP 401)', 0],
      ['file:home', 'rate_limit (HTTP 429)', 0],
    ]);
    // Rotation needs no waiting.
    expect(clock.sleeps).toEqual([]);

    // Next call: the two failed profiles are still cooling down, so home is used first.
    primary.reply({ text: 'again' });
    await collect(providers.streamTurn(baseRequest('main/big')));
    expect(keysSent(primary).at(-1)).toBe('Bearer key-home');

    // After the first cooldown step, the env key is back in rotation.
    clock.advance(COOLDOWN_STEPS_MS[0] + 1);
    primary.reply({ text: 'fresh' });
    await collect(providers.streamTurn(baseRequest('main/big')));
    expect(keysSent(primary).at(-1)).toBe('Bearer key-env');
  });

  it('honours Retry-After with the injected sleep when there is no other profile', async () => {
    const clock = fakeClock();
    const providers = makeProviders(state, config(), { env, clock });
    primary.reply({ error: 'rate_limit', retryAfter: 7 }, { error: 'overloaded', retryAfter: 2 }, { text: 'ok' });
    const events = await collect(providers.streamTurn(baseRequest('main/big')));
    expect(textOf(events)).toBe('ok');
    expect(clock.sleeps).toEqual([7000, 2000]);
    expect(primary.requests).toHaveLength(3);
  });

  it('backs off exponentially with jitter on server errors when nothing else can answer', async () => {
    const clock = fakeClock();
    const providers = makeProviders(state, config(), { env, clock });
    primary.setDefault({ error: 'server' });
    const { error } = await collectUntilError(providers.streamTurn(baseRequest('main/big')));
    expect(error).toMatchObject({ kind: 'server' });
    // 1 try + 3 retries; random() = 0.5 → 75 % of 1 s, 2 s, 4 s.
    expect(primary.requests).toHaveLength(4);
    expect(clock.sleeps).toEqual([750, 1500, 3000]);
  });

  it('with a fallback, retries a 5xx once, switches, and skips the failing model on the next turns for a while', async () => {
    const clock = fakeClock();
    const providers = makeProviders(state, config(), { env, clock });
    primary.setDefault({ error: 'server' });
    backup.setDefault({ text: 'from the fallback' });
    const request = baseRequest('main/big', { fallbacks: ['anthropic/claude-haiku-4-5'] });
    const events = await collect(providers.streamTurn(request));
    expect(textOf(events)).toBe('from the fallback');
    expect(doneOf(events).model).toBe('anthropic/claude-haiku-4-5');
    expect(primary.requests).toHaveLength(2);
    expect(clock.sleeps).toEqual([750]);
    expect(backup.requests[0]?.body.model).toBe('claude-haiku-4-5');
    expect(retries(events).at(-1)).toMatchObject({ model: 'anthropic/claude-haiku-4-5', reason: 'fallback after server (HTTP 500)' });
    expect(providers.cooldowns()).toMatchObject([{ scope: 'model', label: 'main/big', kind: 'server' }]);

    // The next turn goes straight to the fallback, and so does every turn until the cooldown ends.
    await collect(providers.streamTurn(request));
    expect(primary.requests).toHaveLength(2);
    clock.advance(SERVER_COOLDOWN_MS + 1);
    primary.reply({ text: 'primary is back' });
    expect(textOf(await collect(providers.streamTurn(request)))).toBe('primary is back');
    expect(providers.cooldowns()).toEqual([]);
  });

  it('moves to the fallback at once when Retry-After exceeds 60 s, and never loops on quota errors', async () => {
    const clock = fakeClock();
    const providers = makeProviders(state, config(), { env, clock });
    primary.reply({ error: 'rate_limit', retryAfter: 3600 });
    backup.reply({ text: 'fallback' });
    const events = await collect(providers.streamTurn(baseRequest('main/big', { fallbacks: ['anthropic/claude-haiku-4-5'] })));
    expect(textOf(events)).toBe('fallback');
    expect(clock.sleeps).toEqual([]);

    const quota = makeProviders(state, config(), { env, clock });
    primary.reply({ error: 'billing' });
    const { error } = await collectUntilError(quota.streamTurn(baseRequest('main/big')));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'billing', status: 429 });
    expect((error as ProviderError).message).toContain('out of credit');
    expect(primary.requests).toHaveLength(2);

    // The exhausted key is not tried again until its next probe, and the error says what lifts it.
    const second = await collectUntilError(quota.streamTurn(baseRequest('main/big')));
    expect(second.error).toMatchObject({ kind: 'billing' });
    expect((second.error as ProviderError).message).toMatch(/key env:MAIN_KEY is cooling after billing, HTTP 429.*tried again in 5 min \(topping up/);
    expect(primary.requests).toHaveLength(2);
    clock.advance(BILLING_PROBE_MS + 1);
    primary.reply({ text: 'topped up' });
    expect(textOf(await collect(quota.streamTurn(baseRequest('main/big'))))).toBe('topped up');
  });

  it('does not retry once output has streamed: a mid-stream disconnect surfaces with afterOutput', async () => {
    const providers = makeProviders(state, config(), { env });
    primary.reply({ text: 'partial answer that will be cut off', chunkSize: 4, disconnectAfter: 3 });
    backup.reply({ text: 'must not be used' });
    const { events, error } = await collectUntilError(providers.streamTurn(baseRequest('main/big', { fallbacks: ['anthropic/claude-haiku-4-5'] })));
    expect(textOf(events)).toBe('partial ');
    expect(error).toMatchObject({ kind: 'network', afterOutput: true });
    expect(backup.requests).toHaveLength(0);
    expect(primary.requests).toHaveLength(1);
  });

  it('retries a disconnect that happened before any output', async () => {
    const clock = fakeClock();
    const providers = makeProviders(state, config(), { env, clock });
    primary.reply({ text: 'never seen', disconnectAfter: 0 }, { text: 'second try' });
    const events = await collect(providers.streamTurn(baseRequest('main/big')));
    expect(textOf(events)).toBe('second try');
    expect(clock.sleeps).toHaveLength(1);
  });

  it('classifies an in-stream error event after output as non-retryable', async () => {
    const providers = makeProviders(state, config(), { env });
    backup.reply({ text: 'some text', streamError: 'overloaded' });
    const { events, error } = await collectUntilError(providers.streamTurn(baseRequest('anthropic/claude-haiku-4-5')));
    expect(textOf(events)).toBe('some text');
    expect(error).toMatchObject({ kind: 'overloaded', afterOutput: true, providerType: 'overloaded_error' });
  });

  it('aborts a hanging stream through the AbortSignal', async () => {
    const providers = makeProviders(state, config(), { env });
    primary.reply({ text: 'first words', hang: true });
    const controller = new AbortController();
    const seen: ProviderEvent[] = [];
    const run = (async () => {
      for await (const event of providers.streamTurn(baseRequest('main/big', { signal: controller.signal }))) {
        seen.push(event);
        if (event.type === 'text_delta') controller.abort();
      }
    })();
    await expect(run).rejects.toMatchObject({ kind: 'aborted' });
    expect(seen.filter((e) => e.type === 'text_delta')).toHaveLength(1);
    expect(primary.requests).toHaveLength(1);
  });

  it('aborts while waiting to retry', async () => {
    // Real clock: Retry-After 30 s would wait; the abort ends the wait.
    const real = makeProviders(state, config(), { env, clock: systemClock });
    primary.reply({ error: 'rate_limit', retryAfter: 30 });
    const controller = new AbortController();
    const run = collect(real.streamTurn(baseRequest('main/big', { signal: controller.signal })));
    await primary.waitForRequests(1);
    controller.abort();
    await expect(run).rejects.toMatchObject({ kind: 'aborted' });
    expect(primary.requests).toHaveLength(1);
  });

  it('fails a stalled stream after the idle timeout and retries it when nothing was streamed', async () => {
    const clock = fakeClock();
    // Generous, so a loaded machine's pauses between real chunks are not taken for a stall.
    const providers = makeProviders(state, config(), { env, clock, policy: { idleTimeoutMs: 1500 } });
    primary.reply({ hang: true });
    primary.setDefault({ text: 'recovered' });
    // The first reply sends only its opening chunk, then stalls until the client gives up.
    const events = await collect(providers.streamTurn(baseRequest('main/big')));
    expect(textOf(events)).toBe('recovered');
    expect(events.find((e) => e.type === 'retry')).toMatchObject({ reason: 'network (stalled)' });

    primary.setDefault({ text: 'said something', hang: true });
    const stalled = await collectUntilError(providers.streamTurn(baseRequest('main/big')));
    expect(stalled.error).toMatchObject({ kind: 'network', afterOutput: true, message: expect.stringContaining('no data from the provider') });
  });

  it('classifies Anthropic 529 overloaded and 429 with Retry-After by status and error type', async () => {
    const clock = fakeClock();
    const providers = makeProviders(state, config(), { env, clock });
    backup.reply({ error: 'overloaded' }, { error: 'rate_limit', retryAfter: 4 }, { text: 'fine' });
    const events = await collect(providers.streamTurn(baseRequest('anthropic/claude-haiku-4-5')));
    expect(textOf(events)).toBe('fine');
    expect(retries(events).map((e) => (e.type === 'retry' ? e.reason : ''))).toEqual(['overloaded (HTTP 529)', 'rate_limit (HTTP 429)']);
    expect(clock.sleeps).toEqual([750, 4000]);
  });

  it('classifies context-length errors on both providers and does not fall back', async () => {
    const providers = makeProviders(state, config(), { env });
    primary.reply({ error: 'context_length' });
    backup.reply({ error: 'context_length' }, { text: 'unused' });
    const openai = await collectUntilError(providers.streamTurn(baseRequest('main/big', { fallbacks: ['anthropic/claude-haiku-4-5'] })));
    expect(openai.error).toMatchObject({ kind: 'context_length', status: 400, providerType: 'invalid_request_error' });
    expect(backup.requests).toHaveLength(0);
    const anthropic = await collectUntilError(providers.streamTurn(baseRequest('anthropic/claude-haiku-4-5')));
    expect(anthropic.error).toMatchObject({ kind: 'context_length', status: 400 });
    expect(backup.requests).toHaveLength(1);
  });

  it('falls back past a model the provider does not serve (404) and an unconfigured provider', async () => {
    const providers = makeProviders(state, config(), { env: { MAIN_KEY: 'k', OLLAMA_HOST: '127.0.0.1:9' } });
    primary.reply({ error: 'not_found' }, { text: 'second model' });
    const events = await collect(providers.streamTurn(baseRequest('main/big', { fallbacks: ['anthropic/claude-haiku-4-5', 'main/small'] })));
    expect(textOf(events)).toBe('second model');
    expect(primary.requests.map((r) => r.body.model)).toEqual(['big', 'small']);
  });

  it('summarises every failed attempt in the final error', async () => {
    const providers = makeProviders(state, config(), { env, clock: fakeClock() });
    primary.setDefault({ error: 'auth' });
    backup.setDefault({ error: 'auth' });
    const { error } = await collectUntilError(providers.streamTurn(baseRequest('main/big', { fallbacks: ['anthropic/claude-haiku-4-5'] })));
    expect(error).toMatchObject({ kind: 'auth', status: 401 });
    expect((error as Error).message).toContain("Check the API key: $ANTHROPIC_API_KEY in the gateway's environment was refused");
    expect((error as Error).message).toContain("main/big ($MAIN_KEY in the gateway's environment): auth");
    expect((error as Error).message).not.toContain('[');
  });
});
