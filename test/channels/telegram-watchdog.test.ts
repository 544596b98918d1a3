import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TelegramChannel } from '../../source/channels/telegram/telegram-channel.js';
import { configSchema } from '../../source/config/index.js';
import { startFakeTelegram } from '../support/fake-telegram.js';
import { ManualClock } from '../support/manual-clock.js';
import { makeTempState } from '../support/temp-state.js';
import { startTelegramRig, TOKEN, type TelegramRig } from './telegram-harness.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups.length = 0;
});

describe('telegram poll watchdog and failures', () => {
  it('restarts a poll that has not completed for 120 s', async () => {
    const telegram = await startFakeTelegram({ token: TOKEN });
    const state = makeTempState();
    cleanups.push(
      () => state.cleanup(),
      () => telegram.close(),
    );
    const clock = new ManualClock();
    const account = configSchema.parse({ channels: { telegram: { accounts: { default: { apiRoot: telegram.apiRoot, pollTimeoutSeconds: 50 } } } } }).channels
      .telegram.accounts.default!;
    const warnings: string[] = [];
    const channel = new TelegramChannel({
      accountId: 'default',
      token: TOKEN,
      config: () => account,
      clock,
      stateDir: join(state.dir, 'channels', 'telegram'),
      lockOwner: 'watchdog-test',
      workspaceFor: () => state.dir,
      isApproved: () => false,
      onPairing: () => undefined,
      onCallback: async () => '',
      onStatus: () => undefined,
      warn: (message) => warnings.push(message),
      info: () => undefined,
    });
    await channel.start(async () => ({ runId: 'r', status: 'started' }));
    cleanups.push(() => channel.stop());
    await telegram.waitFor((c) => c.method === 'getUpdates');
    clock.advance(90_000);
    expect(telegram.callsOf('getUpdates')).toHaveLength(1);
    clock.advance(60_000);
    await expect.poll(() => telegram.callsOf('getUpdates').length).toBe(2);
    expect(warnings).toEqual(['telegram default: no poll completed for 120 s; restarting polling']);
  });

  it('shows error with the reason when the token is missing or refused, without the token', async () => {
    const telegram = await startFakeTelegram({ token: 'another:token_the_fake_expects_only' });
    cleanups.push(() => telegram.close());
    const rig: TelegramRig = await startTelegramRig({ telegram, config: {} });
    cleanups.push(() => rig.stop());
    await expect.poll(() => rig.gateway.core.channels.status()[0]?.state, { timeout: 5000 }).toBe('error');
    const [refused] = rig.gateway.core.channels.status();
    expect(refused!.reason).toMatch(/Telegram refused the bot token \(401\).*claw channels login telegram/);
    expect(JSON.stringify(rig.gateway.core.channels.status())).not.toContain(TOKEN);
    expect(rig.gateway.core.health().channels).toMatchObject({ ok: false });

    const missing = await startTelegramRig({ account: { tokenFile: undefined, tokenEnv: 'CLAW_TEST_NO_SUCH_TOKEN' } });
    cleanups.push(() => missing.stop());
    expect(missing.gateway.core.channels.status()).toEqual([
      {
        channel: 'telegram',
        accountId: 'default',
        state: 'error',
        reason: "channels.telegram.accounts.default.tokenEnv: CLAW_TEST_NO_SUCH_TOKEN is not set in the gateway's environment",
        reconnectAttempts: 0,
      },
    ]);
  });
});
