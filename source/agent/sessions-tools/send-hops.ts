/** A reply-back chain between sessions stops here: the fourth send in a chain is refused. */
export const MAX_SEND_HOPS = 3;

/** The channel `sessions_send` messages arrive on; their reply goes back to the waiting tool call. */
export const SESSION_CHANNEL = 'session';

const PREFIX = 'sessions_send:';

/**
 * The inbound message id of a `sessions_send` message carries its hop count,
 * so the count survives the journal and a restart with the message itself.
 */
export function sendMessageId(hops: number, uuid: string): string {
  return `${PREFIX}${hops}:${uuid}`;
}

/** The hop count a message id carries; 0 for any message not sent by `sessions_send`. */
export function hopsOfMessageId(messageId: string): number {
  if (!messageId.startsWith(PREFIX)) return 0;
  const hops = Number.parseInt(messageId.slice(PREFIX.length), 10);
  return Number.isFinite(hops) && hops > 0 ? hops : 0;
}

/** What the target session reads: who wrote, and that its reply goes back to them. */
export function framedMessage(from: string, hops: number, text: string): string {
  return `[Message from session ${from} via sessions_send, hop ${hops} of ${MAX_SEND_HOPS}. Your reply is returned to that session.]\n${text}`;
}
