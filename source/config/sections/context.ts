import { z } from 'zod';
import { lazySchema } from '../../protocol/index.js';

/** `context`: what is sent of the history (pruning, the recall engine) and how compaction involves the owner. */
export const contextSection = lazySchema(() =>
  z.strictObject({
    /** Old tool results shortened in what is sent to the model; the transcript keeps them whole. */
    pruning: z
      .strictObject({
        enabled: z.boolean().default(true),
        /** A result longer than this many characters is cut to its head and tail. */
        softTrimChars: z.number().int().min(500).default(4_000),
        /** Whole old results are cleared only once the context is past this share of the window… */
        minWindowShare: z.number().min(0).max(1).default(0.3),
        /** …and the old tool output still sent is longer than this many characters. */
        minPrunableChars: z.number().int().min(0).default(50_000),
        /** The latest assistant turns whose tool results are never pruned. */
        keepLastAssistantTurns: z.number().int().min(1).default(3),
        /** Tools whose results may be pruned (empty: all), and tools whose results never are (`*` matches anything). */
        tools: z.strictObject({ allow: z.array(z.string()).default([]), deny: z.array(z.string()).default([]) }).prefault({}),
        /**
         * How long a provider keeps the prompt cache (seconds): nothing new is pruned before it has gone cold,
         * so a warm cache is not thrown away. Default: 300 for Anthropic models, 0 (no wait) for the rest.
         */
        cacheTtlSeconds: z.number().int().min(0).optional(),
      })
      .prefault({}),
    compaction: z
      .strictObject({
        /** Seconds a client shows what an automatic compaction will do, with keys to compact now, postpone or review; 0: no preview. */
        previewSeconds: z.number().min(0).max(120).default(5),
      })
      .prefault({}),
    /** The `recall` engine: the recent tail plus older exchanges that match the current message, instead of a summary. */
    recall: z
      .strictObject({
        /** Share of the window older exchanges may take. */
        share: z.number().min(0.05).max(0.6).default(0.25),
        /** Most older exchanges pulled in at once. */
        maxExchanges: z.number().int().min(1).max(50).default(8),
      })
      .prefault({}),
  }),
);
