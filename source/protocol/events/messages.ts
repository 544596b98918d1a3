import { z } from 'zod';
import { lazySchema } from '../lazy-schema.js';
import { defineEvent } from '../define.js';

export const messageAcceptedPayload = lazySchema(() =>
  z.strictObject({
    sessionKey: z.string(),
    /** The sender's idempotency key (chat.send) or the channel's message id: a client matches its own echo by it. */
    messageId: z.string(),
    text: z.string(),
    /** Where it came from: `tui`, `cli`, `telegram`, … */
    channel: z.string(),
    /** The connection that sent it (chat.send), for "from claw-tui@host". */
    clientId: z.string().optional(),
    /** A person-readable sender: a channel display name, or the client name and host. */
    sender: z.string().optional(),
    /** The transcript entry, once written. */
    entryId: z.string().optional(),
    at: z.number(),
  }),
);
export type MessageAcceptedPayload = z.infer<typeof messageAcceptedPayload>;

export const messageEvents = {
  'message.accepted': defineEvent({
    name: 'message.accepted',
    description: 'A user message was accepted for a session (from any client or channel), so every client can show it live.',
    payload: () => messageAcceptedPayload,
    scope: 'read',
  }),
};
