import type { Message, User } from 'grammy/types';
import type { TelegramAccountConfig } from '../../config/index.js';
import type { InboundMessage } from '../../queue/index.js';

export const TELEGRAM_CHANNEL = 'telegram';

/** What to do with one message, decided from the account's policies before anything is journaled. */
export type AccessDecision =
  | { action: 'accept'; message: InboundMessage }
  | { action: 'pair'; senderId: string; senderName: string; chatId: string }
  | { action: 'ignore'; why: string };

export interface AccessContext {
  accountId: string;
  config: TelegramAccountConfig;
  bot: { id: number; username: string };
  isApproved(senderId: string): boolean;
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

function mentioned(message: Message, text: string, bot: AccessContext['bot']): boolean {
  if (message.reply_to_message?.from?.id === bot.id) return true;
  return text.toLowerCase().includes(`@${bot.username.toLowerCase()}`);
}

function stripMention(text: string, username: string): string {
  return text.replace(new RegExp(`@${username.replace(/[^\w]/g, '')}\\b`, 'gi'), '').trim();
}

/**
 * A Telegram message as an InboundMessage, or why it is not one: DM policy
 * (pairing, allowlist, open, disabled), group policy (allowlisted groups,
 * per-group allowFrom, requireMention), forum topics as threads. `text` is
 * the message text or caption plus the notes of saved media.
 */
export function decideAccess(message: Message, text: string, context: AccessContext): AccessDecision {
  const from = message.from;
  if (!from || from.is_bot) return { action: 'ignore', why: 'not from a person' };
  const senderId = String(from.id);
  const chatId = String(message.chat.id);
  const { config } = context;
  const base = {
    channel: TELEGRAM_CHANNEL,
    accountId: context.accountId,
    messageId: telegramMessageId(context.accountId, message.chat.id, message.message_id),
    senderId,
    senderName: senderName(from),
  };
  if (message.chat.type === 'private') {
    if (config.dmPolicy === 'disabled') return { action: 'ignore', why: 'direct messages are disabled (dmPolicy)' };
    const listed = config.allowFrom.includes(senderId);
    if (config.dmPolicy === 'allowlist' && !listed) return { action: 'ignore', why: `sender ${senderId} is not in allowFrom` };
    if (config.dmPolicy === 'pairing' && !listed && !context.isApproved(senderId)) {
      return { action: 'pair', senderId, senderName: senderName(from), chatId };
    }
    return { action: 'accept', message: { ...base, peer: { kind: 'direct', id: senderId }, peerName: displayName(from), text } };
  }
  if (message.chat.type !== 'group' && message.chat.type !== 'supergroup') return { action: 'ignore', why: `chat type ${message.chat.type}` };
  if (config.groupPolicy === 'disabled') return { action: 'ignore', why: 'groups are disabled (groupPolicy)' };
  const group = config.groups[chatId];
  if (!group && config.groupPolicy === 'allowlist') return { action: 'ignore', why: `group ${chatId} is not in groups` };
  const allowFrom = group?.allowFrom ?? [];
  if (allowFrom.length > 0 && !allowFrom.includes(senderId)) return { action: 'ignore', why: `sender ${senderId} is not in the group's allowFrom` };
  const requireMention = group?.requireMention ?? true;
  if (requireMention && !mentioned(message, text, context.bot)) return { action: 'ignore', why: 'the bot was not mentioned' };
  const cleaned = requireMention ? stripMention(text, context.bot.username) : text;
  const topic = message.chat.is_forum === true && message.is_topic_message === true && message.message_thread_id !== undefined;
  return {
    action: 'accept',
    message: {
      ...base,
      peer: { kind: 'group', id: chatId },
      ...('title' in message.chat && message.chat.title ? { peerName: message.chat.title } : {}),
      ...(topic ? { threadId: String(message.message_thread_id) } : {}),
      text: cleaned || text,
    },
  };
}

/** The media of a message that is saved under the workspace's inbox/. */
export function mediaOf(message: Message): { kind: 'photo' | 'document' | 'voice' | 'audio' | 'video'; fileId: string; name: string } | undefined {
  if (message.photo && message.photo.length > 0) {
    const largest = message.photo[message.photo.length - 1]!;
    return { kind: 'photo', fileId: largest.file_id, name: `photo-${message.message_id}.jpg` };
  }
  if (message.document) return { kind: 'document', fileId: message.document.file_id, name: message.document.file_name ?? `document-${message.message_id}` };
  if (message.voice) return { kind: 'voice', fileId: message.voice.file_id, name: `voice-${message.message_id}.ogg` };
  if (message.audio) return { kind: 'audio', fileId: message.audio.file_id, name: message.audio.file_name ?? `audio-${message.message_id}` };
  if (message.video) return { kind: 'video', fileId: message.video.file_id, name: message.video.file_name ?? `video-${message.message_id}.mp4` };
  return undefined;
}
