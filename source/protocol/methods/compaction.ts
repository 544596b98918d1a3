import { z } from 'zod';
import { defineEvent, defineMethod } from '../define.js';
import { lazySchema } from '../lazy-schema.js';

/** What an automatic compaction is about to do, shown for `context.compaction.previewSeconds` before it runs. */
export const compactionPreview = lazySchema(() =>
  z.strictObject({
    id: z.string(),
    sessionKey: z.string(),
    runId: z.string(),
    /** Messages and user turns that would be summarised. */
    messages: z.number().int().min(0),
    turns: z.number().int().min(0),
    tokensBefore: z.number().int().min(0),
    /** An estimate: the summary's length is known only once it is written. */
    tokensAfter: z.number().int().min(0),
    /** Identifiers in the summarised part; every one is kept verbatim (appended if the summary drops it). */
    identifiers: z.array(z.string()),
    /** When it compacts unless told otherwise (epoch ms). */
    deadline: z.number(),
  }),
);
export type CompactionPreview = z.infer<typeof compactionPreview>;

export const compactionDecision = lazySchema(() => z.enum(['now', 'postpone']));

export const compactionMethods = {
  'compaction.decide': defineMethod({
    name: 'compaction.decide',
    description: 'Answers a compaction preview: compact now, or postpone it once (the turn goes on uncompacted unless the call would not fit).',
    params: () => z.strictObject({ id: z.string().min(1), decision: compactionDecision, idempotencyKey: z.string().max(128).optional() }),
    result: () => z.strictObject({ id: z.string(), decision: compactionDecision }),
    scope: 'write',
    mutating: true,
  }),
};

export const compactionEvents = {
  'compaction.preview': defineEvent({
    name: 'compaction.preview',
    description: 'An automatic compaction is about to run: what it will summarise, and until when it can be postponed.',
    payload: () => compactionPreview,
    scope: 'read',
  }),
  'compaction.preview.resolved': defineEvent({
    name: 'compaction.preview.resolved',
    description: 'A compaction preview was answered (now or postpone) or ran out (now).',
    payload: () => z.strictObject({ id: z.string(), sessionKey: z.string(), decision: compactionDecision, by: z.string().optional() }),
    scope: 'read',
  }),
};
