import type { InboundMessage } from '../../queue/index.js';
import { DISCORD_CHANNEL, type DiscordAccountConfig } from './config.js';

/** The fields of a Discord message object claw reads (Gateway MESSAGE_CREATE and REST history share them). */
export interface DiscordMessage {
  id: string;
  channel_id: string;
  guild_id?: string;
  author: { id: string; username: string; global_name?: string | null; bot?: boolean };
  content: string;
  type: number;
  webhook_id?: string;
  mentions?: Array<{ id: string; username: string; global_name?: string | null }>;
  referenced_message?: { author?: { id: string } } | null;
  attachments?: Array<{ id: string; filename: string; size: number; url: string; content_type?: string }>;
}

/** What claw knows of a channel: a thread names the channel it lives in. */
export interface ChannelInfo {
  id: string;
  type: number;
  parentId?: string | undefined;
  name?: string | undefined;
}

export type DiscordDecision =
  | { action: 'accept'; message: InboundMessage }
  | { action: 'pair'; senderId: string; senderName: string; chatId: string }
  | { action: 'ignore'; reason: string; why: string };

export interface DiscordAccessContext {
  accountId: string;
  config: DiscordAccountConfig;
  botId: string;
  isApproved(senderId: string): boolean;
  /** The channel a guild message was written in (a thread's parent is checked against the allowlist). */
  channel?: ChannelInfo | undefined;
}

const ignore = (reason: string, why: string): DiscordDecision => ({ action: 'ignore', reason, why });
/** Message types that carry what a person wrote: a plain message and a reply. */
const PERSON_TYPES = new Set([0, 19]);
const THREAD_TYPES = new Set([10, 11, 12]);

export const isThread = (channel: ChannelInfo | undefined): boolean => channel !== undefined && THREAD_TYPES.has(channel.type);

export function discordMessageId(accountId: string, message: Pick<DiscordMessage, 'channel_id' | 'id'>): string {
  return `${accountId}:${message.channel_id}:${message.id}`;
}

export const authorName = (author: DiscordMessage['author']): string => author.global_name || author.username;

/** `<@123>` → `@Ada` for the people the message mentions, so the model reads names; the bot's own mention is dropped. */
function readable(message: DiscordMessage, botId: string): string {
  const names = new Map((message.mentions ?? []).map((user) => [user.id, user.global_name || user.username]));
  return message.content
    .replace(new RegExp(`<@!?${botId}>`, 'g'), '')
    .replace(/<@!?(\d+)>/g, (all, id: string) => (names.has(id) ? `@${names.get(id)}` : all))
    .trim();
}

function mentionsBot(message: DiscordMessage, botId: string): boolean {
  if (message.referenced_message?.author?.id === botId) return true;
  if ((message.mentions ?? []).some((user) => user.id === botId)) return true;
  return new RegExp(`<@!?${botId}>`).test(message.content);
}

/**
 * A Discord message as an InboundMessage, or why it is not one: never a
 * bot's or a webhook's (no bot loops), DM policy (pairing, allowlist, open,
 * disabled), guilds by allowlist with their channels (a thread follows its
 * parent), per-guild allowFrom and requireMention.
 */
export function decideDiscord(message: DiscordMessage, context: DiscordAccessContext): DiscordDecision {
  const { config, botId } = context;
  const author = message.author;
  if (author.id === botId) return ignore('own message', 'sent by this bot');
  if (author.bot || message.webhook_id) return ignore('from a bot', `sent by the bot ${author.username}`);
  if (!PERSON_TYPES.has(message.type)) return ignore('system message', `a system message (type ${message.type})`);
  const senderId = author.id;
  const name = authorName(author);
  const text = readable(message, botId);
  const base = { channel: DISCORD_CHANNEL, accountId: context.accountId, messageId: discordMessageId(context.accountId, message), senderId, senderName: name };
  if (!message.guild_id) {
    if (config.dmPolicy === 'disabled') return ignore('direct messages disabled', 'direct messages are disabled (dmPolicy)');
    const listed = config.allowFrom.includes(senderId);
    if (config.dmPolicy === 'allowlist' && !listed) return ignore('sender not allowed', `sender ${senderId} is not in allowFrom`);
    if (config.dmPolicy === 'pairing' && !listed && !context.isApproved(senderId)) return { action: 'pair', senderId, senderName: name, chatId: senderId };
    return { action: 'accept', message: { ...base, peer: { kind: 'direct', id: senderId }, peerName: name, text } };
  }
  const guild = config.guilds[message.guild_id];
  if (!guild) return ignore('guild not allowed', `guild ${message.guild_id} is not in guilds`);
  const thread = isThread(context.channel) ? context.channel : undefined;
  const channelId = thread?.parentId ?? message.channel_id;
  if (guild.channels !== '*' && !guild.channels.includes(channelId))
    return ignore('channel not allowed', `channel ${channelId} is not in guilds.${message.guild_id}.channels`);
  if (guild.allowFrom.length > 0 && !guild.allowFrom.includes(senderId))
    return ignore('sender not allowed', `sender ${senderId} is not in the guild's allowFrom`);
  if (guild.requireMention && !mentionsBot(message, botId)) return ignore('not mentioned', 'the bot was not mentioned');
  return {
    action: 'accept',
    message: {
      ...base,
      peer: { kind: 'group', id: channelId },
      ...(context.channel?.name && !thread ? { peerName: `#${context.channel.name}` } : {}),
      ...(thread ? { threadId: thread.id } : {}),
      text,
    },
  };
}

/**
 * At most `limit` messages a minute per peer: a bot loop or a flood through
 * another integration is cut off instead of answered (each answer costs a turn).
 */
export class PeerRate {
  readonly #seen = new Map<string, number[]>();

  allow(peer: string, now: number, limit: number): boolean {
    const recent = (this.#seen.get(peer) ?? []).filter((at) => now - at < 60_000);
    const allowed = recent.length < limit;
    if (allowed) recent.push(now);
    this.#seen.set(peer, recent);
    return allowed;
  }
}
