import { z } from 'zod';
import { lazySchema } from '../../protocol/index.js';

/** Context window management: when to flush memory, when and how to compact. */
export const compactionSection = lazySchema(() =>
  z.strictObject({
    /** Tokens kept free below the window for the reply and the next tool results. */
    reserveTokens: z.number().int().min(0).default(20_000),
    /** The reserve never goes below this (capped at half the window on small models). */
    reserveTokensFloor: z.number().int().min(0).default(20_000),
    /** Recent history a compaction keeps verbatim. */
    keepRecentTokens: z.number().int().min(100).default(20_000),
    /** Summariser attempts per compaction before it gives up and says so. */
    maxAttempts: z.number().int().min(1).max(5).default(3),
    memoryFlush: z
      .strictObject({
        /** A silent turn lets the agent write durable notes before history is compacted. */
        enabled: z.boolean().default(true),
        /** The flush runs this many tokens before the compaction threshold. */
        softThresholdTokens: z.number().int().min(0).default(4_000),
      })
      .prefault({}),
    /** Largest share of the window one tool result may take (head and tail kept). */
    toolResultMaxShare: z.number().min(0.05).max(0.9).default(0.5),
  }),
);
