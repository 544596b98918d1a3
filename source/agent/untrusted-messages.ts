import { createHmac, randomBytes } from 'node:crypto';
import { wrapUntrusted } from '../tools/index.js';
import type { HistoryMessage } from './turn-types.js';

/**
 * Keys the fence nonces: a nonce is stable per message for the life of the
 * process (the provider's prompt cache keeps matching), yet no sender can
 * compute it to close the fence early.
 */
const NONCE_KEY = randomBytes(16);

function nonceFor(entryId: string): string {
  return createHmac('sha256', NONCE_KEY).update(entryId).digest('hex').slice(0, 16);
}

/**
 * What the model sees of user messages marked untrusted (channel text from
 * anyone but the owner): fenced like other outside content, naming the
 * channel and the sender. The transcript keeps the words as they came.
 */
export function fenceUntrustedMessages(messages: readonly HistoryMessage[]): readonly HistoryMessage[] {
  if (!messages.some((message) => message.role === 'user' && message.meta?.untrusted)) return messages;
  return messages.map((message) => {
    if (message.role !== 'user' || !message.meta?.untrusted) return message;
    const { channel, senderName, senderId } = message.meta;
    const attributes = { source: 'message', channel, from: senderName ?? senderId, note: 'not from your owner' };
    return { ...message, content: wrapUntrusted(message.content, attributes, nonceFor(message.id)) };
  });
}
