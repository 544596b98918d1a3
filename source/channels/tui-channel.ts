import type { InboundMessage } from '../queue/index.js';
import type { QueueMode } from '../queue/index.js';

export const TUI_CHANNEL = 'tui';

export interface ChatSendInput {
  sessionKey: string;
  text: string;
  idempotencyKey: string;
  queueMode?: QueueMode | undefined;
  clientId: string;
}

/**
 * The operator's own channel (TUI and CLI over the gateway socket): the
 * client names the session, and its idempotency key is the message id.
 */
export function inboundFromChatSend(input: ChatSendInput): InboundMessage {
  return {
    channel: TUI_CHANNEL,
    peer: { kind: 'direct', id: input.clientId },
    sessionKey: input.sessionKey,
    messageId: input.idempotencyKey,
    text: input.text,
    senderId: input.clientId,
    queueMode: input.queueMode,
  };
}
