import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

export const peerKindName = lazySchema(() => z.enum(['direct', 'group']));
export type PeerKind = z.infer<typeof peerKindName>;

/**
 * Where a reply goes: the channel, the account that received the message, the
 * chat it came from and its thread. Persisted with every accepted message, so
 * a reply after a restart still reaches the right chat.
 */
export const replyRoute = lazySchema(() =>
  z.strictObject({
    channel: z.string(),
    accountId: z.string().optional(),
    peer: z.strictObject({ kind: peerKindName, id: z.string() }).optional(),
    threadId: z.string().optional(),
  }),
);
export type ReplyRoute = z.infer<typeof replyRoute>;
