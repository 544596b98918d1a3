import type { Message, MessageEntity, MessageOrigin, User } from 'grammy/types';
import { wrapUntrusted } from '../../tools/index.js';

/** A file a message carries that is saved under the workspace's inbox/ (video notes and GIFs count as video). */
export interface TelegramMedia {
  kind: 'photo' | 'document' | 'voice' | 'audio' | 'video';
  fileId: string;
  name: string;
  /** What the file is, when the kind alone does not say (a round video note, 12 s). */
  detail?: string;
}

/**
 * What a message says, in text a model can read: the text or caption with
 * its entities resolved, a line for each kind of content that is not text
 * (a location, a poll, a sticker …), and the file to save. `unsupported`
 * names content claw cannot take yet, so the sender is told instead of
 * hearing nothing.
 */
export interface TelegramContent {
  text: string;
  media?: TelegramMedia;
  unsupported?: string;
}

const seconds = (value: number | undefined): string => (value === undefined ? '' : `, ${value} s`);

function personName(user: Pick<User, 'first_name' | 'last_name' | 'username'>): string {
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ');
  return user.username ? `${name} (@${user.username})` : name;
}

/** Text with what its entities hide made visible: a link's URL after its label, a mention's user id. */
export function resolvedText(text: string, entities: readonly MessageEntity[] | undefined): string {
  if (!entities?.length) return text;
  let out = text;
  // From the end, so earlier offsets (UTF-16, as JavaScript counts) stay valid.
  for (const entity of [...entities].sort((a, b) => b.offset - a.offset)) {
    const end = entity.offset + entity.length;
    if (entity.type === 'text_link') out = `${out.slice(0, end)} (${entity.url})${out.slice(end)}`;
    else if (entity.type === 'text_mention') out = `${out.slice(0, end)} (Telegram user ${entity.user.id})${out.slice(end)}`;
  }
  return out;
}

/** The file of a message, if it has one to save. */
function mediaOf(message: Message): TelegramMedia | undefined {
  const id = message.message_id;
  if (message.photo && message.photo.length > 0) return { kind: 'photo', fileId: message.photo[message.photo.length - 1]!.file_id, name: `photo-${id}.jpg` };
  if (message.animation)
    return { kind: 'video', fileId: message.animation.file_id, name: message.animation.file_name ?? `animation-${id}.mp4`, detail: 'a GIF' };
  if (message.video_note)
    return {
      kind: 'video',
      fileId: message.video_note.file_id,
      name: `video-note-${id}.mp4`,
      detail: `a round video message${seconds(message.video_note.duration)}`,
    };
  if (message.document) return { kind: 'document', fileId: message.document.file_id, name: message.document.file_name ?? `document-${id}` };
  if (message.voice)
    return { kind: 'voice', fileId: message.voice.file_id, name: `voice-${id}.ogg`, detail: `a voice message${seconds(message.voice.duration)}` };
  if (message.audio) {
    const title = [message.audio.performer, message.audio.title].filter(Boolean).join(' – ');
    return {
      kind: 'audio',
      fileId: message.audio.file_id,
      name: message.audio.file_name ?? `audio-${id}`,
      detail: `${title || 'audio'}${seconds(message.audio.duration)}`,
    };
  }
  if (message.video)
    return {
      kind: 'video',
      fileId: message.video.file_id,
      name: message.video.file_name ?? `video-${id}.mp4`,
      detail: `a video${seconds(message.video.duration)}`,
    };
  return undefined;
}

/** Lines for content that is not text or a file. */
function describedLines(message: Message): string[] {
  const lines: string[] = [];
  if (message.venue) {
    const { venue } = message;
    lines.push(`[venue: ${venue.title}, ${venue.address} (${venue.location.latitude}, ${venue.location.longitude})]`);
  } else if (message.location) {
    const { location } = message;
    lines.push(`[location: ${location.latitude}, ${location.longitude}${location.live_period ? ' (live location)' : ''}]`);
  }
  if (message.contact) {
    const { contact } = message;
    const who = [contact.first_name, contact.last_name].filter(Boolean).join(' ');
    lines.push(`[contact: ${who}, ${contact.phone_number}${contact.user_id ? `, Telegram user ${contact.user_id}` : ''}]`);
  }
  if (message.poll) {
    const { poll } = message;
    lines.push(`[${poll.type === 'quiz' ? 'quiz' : 'poll'}: "${poll.question}" — options: ${poll.options.map((o) => o.text).join(' / ')}]`);
  }
  if (message.dice) lines.push(`[dice ${message.dice.emoji}: rolled ${message.dice.value}]`);
  if (message.sticker)
    lines.push(`[sticker ${message.sticker.emoji ?? ''}${message.sticker.set_name ? ` from the set ${message.sticker.set_name}` : ''}]`.replace('  ', ' '));
  return lines;
}

/** Content kinds a person can send that claw does not read yet (the sender is told so). */
const UNSUPPORTED: ReadonlyArray<[keyof Message, string]> = [
  ['story', 'stories'],
  ['game', 'games'],
  ['invoice', 'invoices'],
  ['paid_media', 'paid media'],
  ['giveaway', 'giveaways'],
  ['checklist' as keyof Message, 'checklists'],
];

export function contentOf(message: Message): TelegramContent {
  const text = resolvedText(message.text ?? message.caption ?? '', message.entities ?? message.caption_entities);
  const media = mediaOf(message);
  const lines = describedLines(message);
  const body = [text.trim(), ...lines].filter(Boolean).join('\n');
  const unsupported = !body && !media ? UNSUPPORTED.find(([key]) => message[key] !== undefined)?.[1] : undefined;
  return { text: body, ...(media ? { media } : {}), ...(unsupported ? { unsupported } : {}) };
}

function originName(origin: MessageOrigin): string {
  switch (origin.type) {
    case 'user':
      return personName(origin.sender_user);
    case 'hidden_user':
      return `${origin.sender_user_name} (hidden account)`;
    case 'chat':
      return `${'title' in origin.sender_chat && origin.sender_chat.title ? origin.sender_chat.title : 'a chat'}${origin.author_signature ? ` (${origin.author_signature})` : ''}`;
    case 'channel':
      return `the channel ${origin.chat.title ?? ''}${origin.author_signature ? ` (${origin.author_signature})` : ''}`.trim();
  }
}

const excerpt = (text: string): string => (text.length > 400 ? `${text.slice(0, 400)}…` : text);

/** A forward's text fenced as outside content: the sender passed it on, they did not write it. */
export function forwardedBody(message: Message, text: string): string {
  return message.forward_origin && text.trim() ? wrapUntrusted(text, { source: 'telegram', forwarded_from: originName(message.forward_origin) }) : text;
}

/**
 * Where a message comes from and what it answers, as lines before its text:
 * a forward's origin (so forwarded words are not read as the sender's own),
 * the message it replies to and the part it quotes. A topic's first message,
 * which Telegram sets as the reply of every message in the topic, is not a
 * reply.
 */
export function contextLines(message: Message, botId: number): string[] {
  const lines: string[] = [];
  if (message.forward_origin) lines.push(`[forwarded from ${originName(message.forward_origin)}]`);
  const replied = message.reply_to_message;
  if (replied && !replied.forum_topic_created) {
    const ours = replied.from?.id === botId;
    const author = ours ? 'your earlier message' : replied.from ? `a message from ${personName(replied.from)}` : 'a message';
    const quoted = message.quote?.text ?? replied.text ?? replied.caption ?? '';
    const what = message.quote ? 'quoting' : 'replying to';
    // Someone else's words are data, not the sender's instructions: fenced like any outside text.
    if (!quoted) lines.push(`[replying to ${author}]`);
    else if (ours) lines.push(`[${what} ${author}: "${excerpt(quoted)}"]`);
    else lines.push(`[${what} ${author}:]`, wrapUntrusted(excerpt(quoted), { source: 'telegram', quoted: true }));
  } else if (message.external_reply) {
    const quoted = message.quote?.text;
    lines.push(`[replying to a message from ${originName(message.external_reply.origin)}${quoted ? ':' : ''}]`);
    if (quoted) lines.push(wrapUntrusted(excerpt(quoted), { source: 'telegram', quoted: true }));
  }
  return lines;
}

/** Whether a reply is to the bot: a topic's first message (the implicit reply in a topic) is not. */
export function repliesToBot(message: Message, botId: number): boolean {
  const replied = message.reply_to_message;
  return replied !== undefined && !replied.forum_topic_created && replied.from?.id === botId;
}
