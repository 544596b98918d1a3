import { telegramAccount, type TelegramAccountConfig } from '../../config/index.js';
import type { ChannelAdapter } from '../adapter.js';
import { TELEGRAM_CHANNEL } from './telegram-inbound.js';
import { readChannelToken } from '../credentials.js';
import { telegramCredential } from './token.js';

/** Telegram bots over long polling: `channels.telegram.accounts.<id>`. */
export const telegramAdapter: ChannelAdapter<TelegramAccountConfig> = {
  id: TELEGRAM_CHANNEL,
  label: 'Telegram',
  accounts: (config) => config.channels.telegram.accounts,
  credential: telegramCredential,
  parseAccount: (raw) => telegramAccount.parse(raw),
  async create(context) {
    const token = readChannelToken(TELEGRAM_CHANNEL, telegramCredential, context.account(), context.accountId, context.paths, context.env);
    context.addSecret(token);
    // Loaded only for an enabled account: grammY and its fetch polyfills are a third of the gateway's code.
    const { TelegramChannel } = await import('./telegram-channel.js');
    const { timings } = context;
    return new TelegramChannel({
      accountId: context.accountId,
      token,
      config: context.account,
      clock: context.clock,
      stateDir: context.stateDir,
      lockOwner: context.instanceId,
      workspaceFor: context.workspaceFor,
      isApproved: context.isApproved,
      onPairing: context.onPairing,
      onCallback: (press) => context.onButton(press),
      onStatus: context.onStatus,
      warn: context.warn,
      info: context.info,
      ...(timings.reconnectFirstDelayMs ? { reconnectFirstDelayMs: timings.reconnectFirstDelayMs } : {}),
      ...(timings.lockRetryMs ? { lockRetryMs: timings.lockRetryMs } : {}),
      ...(timings.watchdogMs ? { watchdogMs: timings.watchdogMs } : {}),
    });
  },
};
