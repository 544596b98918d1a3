import type { Message, User } from 'grammy/types';
import type { TelegramAccountConfig } from '../../config/index.js';
import type { InboundMessage } from '../../queue/index.js';
import { repliesToBot } from './telegram-content.js';

export const TELEGRAM_CHANNEL = 'telegram';

/** What to do with one message, decided from the account's policies before anything is journaled. */
export type AccessDecision =
  | { action: 'accept'; message: InboundMessage }
  | { action: 'pair'; senderId: string; senderName: string; chatId: string }
  /** `reason` is a stable key (`claw channels status` counts by it); `why` says it for the log. */
  | { action: 'ignore'; reason: string; why: string };

export interface AccessContext {
  accountId: string;
  config: TelegramAccountConfig;
  bot: { id: number; username: string };
  isApproved(senderId: string): boolean;
  /** The group a migrated supergroup was upgraded from, whose settings it keeps. */
  migratedFrom(chatId: string): string | undefined;
}

export function senderName(user: User): string {
  return user.username ? `@${user.username}` : [user.first_name, user.last_name].filter(Boolean).join(' ');
}

/** How a person is named in the sessions pane: their name, else their @username. */
export function displayName(user: User): string {
  return [user.first_name, user.last_name].filter(Boolean).join(' ') || senderName(user);
}

/** The platform id of a message, unique per account: with the channel it is the journal's dedupe key. */
export function telegramMessageId(accountId: string, chatId: number | string, messageId: number): string {
  return `${accountId}:${chatId}:${messageId}`;
}

const ignore = (reason: string, why: string): AccessDecision => ({ action: 'ignore', reason, why });

function mentioned(message: Message, text: string, bot: AccessContext['bot']): boolean {
  if (repliesToBot(message, bot.id)) return true;
  return text.toLowerCase().includes(`@${bot.username.toLowerCase()}`);
}

function stripMention(text: string, username: string): string {
  return text.replace(new RegExp(`@${username.replace(/[^\w]/g, '')}\\b`, 'gi'), '').trim();
}

/**
 * `/status@claw_bot` → `/status` for this bot, anywhere; undefined for a
 * command addressed to another bot (it is not ours to answer).
 */
export function ownCommand(text: string, username: string): string | undefined {
  const match = /^(\/[\w-]+)@(\w+)/.exec(text);
  if (!match) return text;
  if (match[2]?.toLowerCase() !== username.toLowerCase()) return undefined;
  return `${match[1]}${text.slice(match[0].length)}`;
}

/** The anonymous admin's messages come from @GroupAnonymousBot with the group itself as `sender_chat`. */
const anonymousAdmin = (message: Message): boolean => message.from?.is_bot === true && message.sender_chat?.id === message.chat.id;

/**
 * A Telegram message as an InboundMessage, or why it is not one: DM policy
 * (pairing, allowlist, open, disabled), group policy (allowlisted groups,
 * per-group allowFrom, requireMention, anonymous admins), forum topics as
 * threads, commands for this bot or another. `text` is what the message
 * says (contentOf), with its context lines.
 */
export function decideAccess(message: Message, text: string, context: AccessContext): AccessDecision {
  const from = message.from;
  const chatId = String(message.chat.id);
  const { config } = context;
  const group = config.groups[chatId] ?? config.groups[context.migratedFrom(chatId) ?? ''];
  if (!from) return ignore('no sender', 'the message has no sender');
  const anonymous = anonymousAdmin(message);
  if (anonymous && !group?.allowAnonymousAdmins)
    return ignore('anonymous admin', `an anonymous admin wrote in ${chatId}; set groups.${chatId}.allowAnonymousAdmins to accept them`);
  if (from.is_bot && !anonymous) return ignore('from a bot', `sent by the bot @${from.username ?? from.id}`);
  const command = ownCommand(text, context.bot.username);
  if (command === undefined) return ignore('command for another bot', 'a command addressed to another bot');
  const senderId = anonymous ? `chat${chatId}` : String(from.id);
  const name = anonymous ? `an admin of ${'title' in message.chat ? (message.chat.title ?? chatId) : chatId}` : senderName(from);
  const base = {
    channel: TELEGRAM_CHANNEL,
    accountId: context.accountId,
    messageId: telegramMessageId(context.accountId, message.chat.id, message.message_id),
    senderId,
    senderName: name,
  };
  if (message.chat.type === 'private') {
    if (config.dmPolicy === 'disabled') return ignore('direct messages disabled', 'direct messages are disabled (dmPolicy)');
    const listed = config.allowFrom.includes(senderId);
    if (config.dmPolicy === 'allowlist' && !listed) return ignore('sender not allowed', `sender ${senderId} is not in allowFrom`);
    if (config.dmPolicy === 'pairing' && !listed && !context.isApproved(senderId)) {
      return { action: 'pair', senderId, senderName: name, chatId };
    }
    return { action: 'accept', message: { ...base, peer: { kind: 'direct', id: senderId }, peerName: displayName(from), text: command } };
  }
  if (message.chat.type !== 'group' && message.chat.type !== 'supergroup') return ignore('chat type', `chat type ${message.chat.type}`);
  if (config.groupPolicy === 'disabled') return ignore('groups disabled', 'groups are disabled (groupPolicy)');
  if (!group && config.groupPolicy === 'allowlist') return ignore('group not allowed', `group ${chatId} is not in groups`);
  const allowFrom = group?.allowFrom ?? [];
  if (!anonymous && allowFrom.length > 0 && !allowFrom.includes(senderId))
    return ignore('sender not allowed', `sender ${senderId} is not in the group's allowFrom`);
  const requireMention = group?.requireMention ?? true;
  // A command for this bot (`/status@claw_bot`, or any command where the bot is the only one asked) needs no mention.
  const addressed = command !== text || !requireMention || mentioned(message, text, context.bot);
  if (!addressed) return ignore('not mentioned', 'the bot was not mentioned');
  const cleaned = stripMention(command, context.bot.username);
  const topic = message.chat.is_forum === true && message.is_topic_message === true && message.message_thread_id !== undefined;
  return {
    action: 'accept',
    message: {
      ...base,
      peer: { kind: 'group', id: chatId },
      ...('title' in message.chat && message.chat.title ? { peerName: message.chat.title } : {}),
      ...(topic ? { threadId: String(message.message_thread_id) } : {}),
      text: cleaned || command,
    },
  };
}
