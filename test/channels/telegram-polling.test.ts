import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { InboundMessage } from '../../source/queue/index.js';
import { TelegramChannel } from '../../source/channels/telegram/telegram-channel.js';
import { configSchema, systemClock } from '../../source/config/index.js';
import { echoRunner } from '../../source/queue/index.js';
import { startFakeTelegram, type FakeTelegram } from '../support/fake-telegram.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { alice, aliceChat, sentTo, startTelegramRig, TOKEN, type TelegramRig } from './telegram-harness.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups.length = 0;
});

function channelOn(telegram: FakeTelegram, state: TempState, owner: string, received: InboundMessage[]): TelegramChannel {
  const config = configSchema.parse({
    channels: { telegram: { accounts: { default: { apiRoot: telegram.apiRoot, dmPolicy: 'open', pollTimeoutSeconds: 1 } } } },
  });
  const account = config.channels.telegram.accounts.default!;
  const channel = new TelegramChannel({
    accountId: 'default',
    token: TOKEN,
    config: () => account,
    clock: systemClock,
    stateDir: join(state.dir, 'channels', 'telegram'),
    lockOwner: owner,
    workspaceFor: () => join(state.dir, 'workspace'),
    isApproved: () => true,
    onPairing: () => undefined,
    onCallback: async () => '',
    onStatus: () => undefined,
    warn: () => undefined,
    info: () => undefined,
    lockRetryMs: 50,
    reconnectFirstDelayMs: 50,
  });
  void channel.start(async (message) => {
    received.push(message);
    return { runId: message.messageId, status: 'started' };
  });
  cleanups.push(() => channel.stop());
  return channel;
}

describe('telegram long polling', () => {
  it('a second poller on the same token waits for the lock instead of fighting over getUpdates, then takes over', async () => {
    const telegram = await startFakeTelegram({ token: TOKEN });
    const state = makeTempState();
    cleanups.push(
      () => state.cleanup(),
      () => telegram.close(),
    );
    const first: InboundMessage[] = [];
    const second: InboundMessage[] = [];
    const a = channelOn(telegram, state, 'gateway-a', first);
    await expect.poll(() => a.status().state).toBe('running');
    const b = channelOn(telegram, state, 'gateway-b', second);
    await expect.poll(() => b.status().state).toBe('reconnecting');
    expect(b.status().reason).toMatch(/another gateway .* is polling this bot/);
    telegram.pushMessage(aliceChat, alice, 'one');
    await expect.poll(() => first.length).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(telegram.conflicts).toBe(0);
    await a.stop();
    await expect.poll(() => b.status().state).toBe('running');
    telegram.pushMessage(aliceChat, alice, 'two');
    await expect.poll(() => second.map((m) => m.text)).toEqual(['two']);
    expect(first.map((m) => m.text)).toEqual(['one']);
    expect(telegram.conflicts).toBe(0);
  });

  it('waits out a 429 retry_after on getUpdates and on sendMessage', async () => {
    const rig: TelegramRig = await startTelegramRig({ account: { dmPolicy: 'open' }, core: { runner: echoRunner } });
    cleanups.push(() => rig.stop());
    const { telegram } = rig;
    await telegram.waitFor((c) => c.method === 'getUpdates');
    telegram.failNext('getUpdates', { code: 429, description: 'Too Many Requests: retry after 1', retryAfter: 1 });
    const before = telegram.callsOf('getUpdates').length;
    telegram.pushMessage(aliceChat, alice, 'wake the poll');
    await expect.poll(() => telegram.callsOf('getUpdates').length, { timeout: 5000 }).toBeGreaterThanOrEqual(before + 2);
    const [limited, after] = telegram.callsOf('getUpdates').slice(before);
    expect(after!.at - limited!.at).toBeGreaterThanOrEqual(950);

    await telegram.waitFor((c) => c.method === 'sendMessage' && String(c.params.text) === 'echo: wake the poll');
    telegram.failNext('sendMessage', { code: 429, description: 'Too Many Requests: retry after 1', retryAfter: 1 });
    telegram.pushMessage(aliceChat, alice, 'hello');
    const hello = () => telegram.callsOf('sendMessage').filter((c) => String(c.params.text) === 'echo: hello');
    await expect.poll(() => hello().length, { timeout: 10_000 }).toBe(2);
    const sends = hello();
    expect(sends[1]!.at - sends[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('a reply Telegram refuses is not reported delivered: the transcript and the clients are told', async () => {
    const rig: TelegramRig = await startTelegramRig({ account: { dmPolicy: 'open' }, core: { runner: echoRunner } });
    cleanups.push(() => rig.stop());
    const { telegram, gateway } = rig;
    const client = await gateway.connect();
    const errors: string[] = [];
    client.on('chat', (payload) => payload.state === 'error' && errors.push(payload.message));
    telegram.failNext('sendMessage', { code: 403, description: 'Forbidden: bot was blocked by the user' });
    telegram.pushMessage(aliceChat, alice, 'are you there?');
    await expect.poll(() => errors.length, { timeout: 5000 }).toBe(1);
    expect(errors[0]).toMatch(/not delivered to Telegram: Telegram answered 403 to sendMessage: Forbidden: bot was blocked/);
    expect(errors[0]).not.toContain(TOKEN);
    const key = 'agent:main:telegram:direct:4001';
    const session = await gateway.core.sessions.registry.open(key);
    const failed = [...session.entries()].filter((e) => e.type === 'custom' && e.customType === 'delivery_failed');
    expect(failed).toHaveLength(1);
    // A 403 is final: one attempt, no retry loop.
    expect(sentTo(telegram, alice.id)).toEqual(['echo: are you there?']);
  });

  it('a reply refused while the chat still answers leaves a one-line note in the chat', async () => {
    const rig: TelegramRig = await startTelegramRig({ account: { dmPolicy: 'open' }, core: { runner: echoRunner } });
    cleanups.push(() => rig.stop());
    const { telegram } = rig;
    telegram.failNext('sendMessage', { code: 400, description: 'Bad Request: message is too long' });
    telegram.pushMessage(aliceChat, alice, 'long one');
    await expect.poll(() => sentTo(telegram, alice.id).length, { timeout: 5000 }).toBe(2);
    expect(sentTo(telegram, alice.id)).toEqual(['echo: long one', '⚠️ My reply could not be delivered here; the owner can read it in the transcript.']);
  });
});
