import { z } from 'zod';

import { queueModeName as queueMode, lazySchema } from '../../protocol/index.js';

export const dropPolicies = ['summarize', 'old', 'new'] as const;

export const queueSection = lazySchema(() =>
  z.strictObject({
    mode: queueMode.default('collect'),
    /** Queue mode per channel, overriding `mode`. */
    byChannel: z.record(z.string(), queueMode).default({}),
    debounceMs: z.number().int().min(0).default(1000),
    cap: z.number().int().min(1).default(20),
    drop: z.enum(dropPolicies).default('summarize'),
    lanes: z
      .strictObject({
        main: z.number().int().min(1).default(4),
        subagent: z.number().int().min(1).default(8),
        cron: z.number().int().min(1).default(1),
      })
      .prefault({}),
    /** A turn with no progress for this long is aborted and its lane freed. */
    watchdogSeconds: z.number().int().min(1).default(600),
  }),
);
