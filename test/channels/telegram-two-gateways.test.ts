import { afterEach, describe, expect, it } from 'vitest';
import { CONFLICT_REASON } from '../../source/channels/telegram/poll-conflict.js';
import { echoRunner } from '../../source/queue/index.js';
import { startFakeTelegram } from '../support/fake-telegram.js';
import { alice, aliceChat, sentTo, startTelegramRig, TOKEN, type TelegramRig } from './telegram-harness.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups.length = 0;
});

const key = 'agent:main:telegram:direct:4001';

describe('two gateways with different state dirs on one bot token', () => {
  it('the newcomer gets the 409s, shows the channel in error with the reason and stops after its attempts; the first keeps answering', async () => {
    const telegram = await startFakeTelegram({ token: TOKEN });
    cleanups.push(() => telegram.close());
    const account = { dmPolicy: 'allowlist', allowFrom: [String(alice.id)] };
    // Both on the reconnect policy's doubling, 1000× faster than 5 s: ten attempts take about 5 s.
    const channels = { timings: { reconnectFirstDelayMs: 5, lockRetryMs: 50 } };
    const first: TelegramRig = await startTelegramRig({ telegram, account, core: { runner: echoRunner, channels } });
    cleanups.push(() => first.stop());
    telegram.pushMessage(aliceChat, alice, 'before');
    await expect.poll(() => sentTo(telegram, alice.id), { timeout: 5000 }).toEqual(['echo: before']);

    const second: TelegramRig = await startTelegramRig({ telegram, account, core: { runner: echoRunner, channels } });
    cleanups.push(() => second.stop());
    const client = await second.gateway.connect();
    // What a client learns: the hello snapshot (the conflict may come before it connects), then the events.
    const seen: Array<{ state: string; reason?: string | undefined }> = (client.hello?.snapshot.channels ?? []).map((c) => ({
      state: c.state,
      reason: c.reason,
    }));
    client.on('channels.status', (payload) => seen.push(...payload.channels.map((c) => ({ state: c.state, reason: c.reason }))));
    const status = () => second.gateway.core.channels.status()[0]!;
    await expect.poll(() => status().state, { timeout: 5000 }).toBe('error');
    expect(status().reason).toBe(CONFLICT_REASON);

    await expect.poll(() => status().reason, { timeout: 20_000 }).toMatch(/stopped polling after 10 attempts/);
    expect(status().reason).toContain(CONFLICT_REASON);
    expect(seen.some((s) => s.state === 'error' && s.reason === CONFLICT_REASON)).toBe(true);
    // Stopped for good: no more getUpdates from it, so no more conflicts.
    const conflicts = telegram.conflicts;
    expect(conflicts).toBeLessThanOrEqual(2 * 11);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(telegram.conflicts).toBe(conflicts);

    expect(first.gateway.core.channels.status()[0]!.state).toBe('running');
    telegram.pushMessage(aliceChat, alice, 'after');
    await expect.poll(() => sentTo(telegram, alice.id), { timeout: 5000 }).toEqual(['echo: before', 'echo: after']);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sentTo(telegram, alice.id)).toEqual(['echo: before', 'echo: after']);
    expect(second.gateway.core.sessions.registry.get(key)).toBeUndefined();
    const firstSession = await first.gateway.core.sessions.registry.open(key);
    expect([...firstSession.entries()].filter((e) => e.type === 'message' && e.role === 'user')).toHaveLength(2);
  });

  it('a 409 because a webhook is set says so and stops polling at once', async () => {
    const telegram = await startFakeTelegram({ token: TOKEN });
    cleanups.push(() => telegram.close());
    telegram.failNext('getUpdates', {
      code: 409,
      description: "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
    });
    const rig: TelegramRig = await startTelegramRig({ telegram, core: { runner: echoRunner } });
    cleanups.push(() => rig.stop());
    const status = () => rig.gateway.core.channels.status()[0]!;
    await expect.poll(() => status().state, { timeout: 5000 }).toBe('error');
    expect(status().reason).toMatch(/a webhook is set for this bot, .* deleteWebhook/);
    const polls = telegram.callsOf('getUpdates').length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(telegram.callsOf('getUpdates')).toHaveLength(polls);
  });
});
