import { z } from 'zod';
import { lazySchema } from '../../protocol/index.js';

export const dmScopes = ['main', 'per-peer', 'per-channel-peer', 'per-account-channel-peer'] as const;

export const sessionSection = lazySchema(() =>
  z.strictObject({
    /** How direct messages map to sessions. */
    dmScope: z.enum(dmScopes).default('per-channel-peer'),
    reset: z
      .strictObject({
        /** Local time `HH:MM` of a daily reset, or null for none. */
        daily: z
          .string()
          .regex(/^\d{2}:\d{2}$/, 'a time like "04:00"')
          .nullable()
          .default(null),
        /** Minutes of inactivity after which the next message starts a new session; 0 = never. */
        idleMinutes: z.number().int().min(0).default(0),
      })
      .prefault({}),
    /** An open transcript nothing used for this many minutes (no turn, nothing queued) is closed and dropped from memory; reopened from disk on the next message. 0 = never. */
    evictIdleMinutes: z.number().min(0).default(10),
    /** Longest accepted message text, in characters. */
    maxMessageChars: z.number().int().min(1).default(100_000),
  }),
);
