import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DiscordChannel } from '../../source/channels/discord/discord-channel.js';
import { discordAccount } from '../../source/channels/discord/config.js';
import { systemClock } from '../../source/config/index.js';
import type { InboundMessage } from '../../source/queue/index.js';
import { startFakeDiscord, type DiscordUser, type FakeDiscord } from '../support/fake-discord.js';
import { startTestGateway, type TestCoreOptions, type TestGateway } from '../support/gateway-harness.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

export const DISCORD_TOKEN = 'OTAwMDAwMDAwMDAwMDAwMDAx.GtestX.fake_token_for_the_fake_discord_only_00';
export const ada: DiscordUser = { id: '310000000000000001', username: 'ada', global_name: 'Ada' };
export const bob: DiscordUser = { id: '310000000000000002', username: 'bob', global_name: 'Bob' };
export const otherBot: DiscordUser = { id: '310000000000000003', username: 'otherbot', bot: true };
export const GUILD = '320000000000000001';
export const GENERAL = '330000000000000001';

/** A Discord account pointed at a fake, its token in a 0600 file of the state dir. */
export function discordConfig(state: TempState, discord: FakeDiscord, account: Record<string, unknown> = {}): Record<string, unknown> {
  const tokenFile = join(state.dir, 'discord.token');
  writeFileSync(tokenFile, `${DISCORD_TOKEN}\n`, { mode: 0o600 });
  return { channels: { discord: { accounts: { default: { tokenFile, apiRoot: discord.apiRoot, ...account } } } } };
}

export interface ChannelProbe {
  channel: DiscordChannel;
  received: InboundMessage[];
  warnings: string[];
}

/** One DiscordChannel on its own (no gateway around it): the sink records what was accepted and dedupes like the journal. */
export function discordChannelOn(
  discord: FakeDiscord,
  state: TempState,
  options: { owner?: string; account?: Record<string, unknown>; stableMs?: number } = {},
): ChannelProbe {
  const account = discordAccount.parse({ apiRoot: discord.apiRoot, dmPolicy: 'open', guilds: { [GUILD]: { channels: [GENERAL] } }, ...options.account });
  const received: InboundMessage[] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  const channel = new DiscordChannel({
    accountId: 'default',
    token: DISCORD_TOKEN,
    config: () => account,
    clock: systemClock,
    stateDir: join(state.dir, 'channels', 'discord'),
    lockOwner: options.owner ?? 'gateway-a',
    workspaceFor: () => join(state.dir, 'workspace'),
    isApproved: () => true,
    onPairing: () => undefined,
    onButton: async () => 'ok',
    onStatus: () => undefined,
    commands: async () => [],
    warn: (message) => warnings.push(message),
    info: () => undefined,
    lockRetryMs: 50,
    reconnectFirstDelayMs: 50,
    ...(options.stableMs ? { stableMs: options.stableMs } : {}),
  });
  void channel.start(async (message) => {
    if (seen.has(message.messageId)) return { runId: message.messageId, status: 'duplicate' };
    seen.add(message.messageId);
    received.push(message);
    return { runId: message.messageId, status: 'started' };
  });
  return { channel, received, warnings };
}

export interface DiscordRig {
  discord: FakeDiscord;
  gateway: TestGateway;
  state: TempState;
  stop(): Promise<void>;
}

/** A real gateway (in process) with its Discord channel pointed at a fresh fake Discord. */
export async function startDiscordRig(
  options: { account?: Record<string, unknown>; config?: Record<string, unknown>; core?: TestCoreOptions; discord?: FakeDiscord; state?: TempState } = {},
): Promise<DiscordRig> {
  const discord = options.discord ?? (await startFakeDiscord({ token: DISCORD_TOKEN, heartbeatIntervalMs: 500 }));
  discord.guildChannel(GUILD, GENERAL, 'general');
  const state = options.state ?? makeTempState();
  const config = { ...discordConfig(state, discord, options.account), ...options.config };
  const gateway = await startTestGateway({ state, config, core: { channels: { timings: { reconnectFirstDelayMs: 50, lockRetryMs: 50 } }, ...options.core } });
  return {
    discord,
    gateway,
    state,
    async stop() {
      await gateway.stop();
      if (!options.discord) await discord.close();
      if (!options.state) state.cleanup();
    },
  };
}

/** What the bot posted in a channel, oldest first. */
export function botTexts(discord: FakeDiscord, channelId: string): string[] {
  return discord
    .messages(channelId)
    .filter((m) => m.author.id === discord.bot.id)
    .map((m) => m.content);
}
