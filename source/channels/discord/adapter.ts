import type { ChannelAdapter } from '../adapter.js';
import { readChannelToken } from '../credentials.js';
import { DISCORD_CHANNEL, discordAccount, type DiscordAccountConfig } from './config.js';
import { discordCredential } from './token.js';

/** Discord bots over the Gateway (push) and REST: `channels.discord.accounts.<id>`. */
export const discordAdapter: ChannelAdapter<DiscordAccountConfig> = {
  id: DISCORD_CHANNEL,
  label: 'Discord',
  credential: discordCredential,
  accounts: (config) => (config.channels as Record<string, { accounts?: Record<string, unknown> }>)[DISCORD_CHANNEL]?.accounts ?? {},
  parseAccount: (raw) => discordAccount.parse(raw),
  async create(context) {
    const token = readChannelToken(DISCORD_CHANNEL, discordCredential, context.account(), context.accountId, context.paths, context.env);
    context.addSecret(token);
    // Loaded only for an enabled account: nothing of Discord costs a gateway without one.
    const { DiscordChannel } = await import('./discord-channel.js');
    const { timings } = context;
    return new DiscordChannel({
      accountId: context.accountId,
      token,
      config: context.account,
      clock: context.clock,
      stateDir: context.stateDir,
      lockOwner: context.instanceId,
      workspaceFor: context.workspaceFor,
      isApproved: context.isApproved,
      onPairing: context.onPairing,
      onButton: context.onButton,
      onStatus: context.onStatus,
      commands: context.commands,
      warn: context.warn,
      info: context.info,
      ...(timings.reconnectFirstDelayMs ? { reconnectFirstDelayMs: timings.reconnectFirstDelayMs } : {}),
      ...(timings.lockRetryMs ? { lockRetryMs: timings.lockRetryMs } : {}),
      ...(timings.stableMs ? { stableMs: timings.stableMs } : {}),
    });
  },
};
