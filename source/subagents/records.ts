import { z } from 'zod';
import { replyRoute, lazySchema } from '../protocol/index.js';

/** `subagents/runs.jsonl`: every child run ever spawned, and the cancels asked for. */
export const spawnedRecord = lazySchema(() =>
  z.object({
    t: z.literal('spawned'),
    runId: z.string(),
    childKey: z.string(),
    parentKey: z.string(),
    /** The parent turn that spawned it (what `cancelWithParent` follows). */
    parentRunId: z.string().optional(),
    agentId: z.string(),
    label: z.string(),
    task: z.string(),
    depth: z.number().int().min(1),
    mode: z.enum(['run', 'session']),
    /** The inbound message id the child's turn runs under: `spawn:<runId>`. */
    messageId: z.string(),
    timeoutSeconds: z.number().int().min(0),
    /** `acp:<agent>` for an external coding agent. */
    runtime: z.string().optional(),
    /** The chat platform route of the parent turn that spawned it: the parent's answer to the result goes there too. */
    replyRoute: replyRoute.optional(),
    /** Whom the child acts for (session summary `actingFor`); absent in records written before it, read as the parent's now. */
    actingFor: z.object({ principal: z.string(), agents: z.array(z.string()) }).optional(),
    at: z.number(),
  }),
);
export type SpawnedRecord = z.infer<typeof spawnedRecord>;

export const cancelRecord = lazySchema(() =>
  z.object({
    t: z.literal('cancel'),
    runId: z.string(),
    reason: z.enum(['request', 'parent', 'timeout']),
    at: z.number(),
  }),
);
export type CancelRecord = z.infer<typeof cancelRecord>;

export const ledgerRecord = lazySchema(() => z.discriminatedUnion('t', [spawnedRecord, cancelRecord]));
export type LedgerRecord = z.infer<typeof ledgerRecord>;

export const resultStatus = lazySchema(() => z.enum(['done', 'failed', 'cancelled', 'timeout']));
export type ResultStatus = z.infer<typeof resultStatus>;

/** `subagents/inbox/<parent>.jsonl`: a child's completion, written before anything else happens with it. */
export const resultRecord = lazySchema(() =>
  z.object({
    t: z.literal('result'),
    runId: z.string(),
    childKey: z.string(),
    label: z.string(),
    status: resultStatus,
    /** The child's final reply (or what went wrong); never its tool chain. */
    text: z.string(),
    /** The child answered exactly ANNOUNCE_SKIP: nothing is announced. */
    skipped: z.boolean().optional(),
    tokens: z.number().int().min(0),
    durationMs: z.number().min(0),
    at: z.number(),
  }),
);
export type ResultRecord = z.infer<typeof resultRecord>;

/** The parent ended its turn to wait: `all` holds these children's results until every one has reported. */
export const yieldRecord = lazySchema(() =>
  z.object({
    t: z.literal('yield'),
    id: z.string(),
    mode: z.enum(['all', 'any']),
    runIds: z.array(z.string()),
    at: z.number(),
  }),
);
export type YieldRecord = z.infer<typeof yieldRecord>;

/** One inbound message to the parent carrying these results, written before it is accepted. */
export const announceRecord = lazySchema(() => z.object({ t: z.literal('announce'), messageId: z.string(), runIds: z.array(z.string()), at: z.number() }));
export type AnnounceRecord = z.infer<typeof announceRecord>;

/** The parent's inbound path accepted (journaled) that message: from here the journal owns it. */
export const deliveredRecord = lazySchema(() => z.object({ t: z.literal('delivered'), messageId: z.string(), at: z.number() }));

export const inboxRecord = lazySchema(() => z.discriminatedUnion('t', [resultRecord, yieldRecord, announceRecord, deliveredRecord]));
export type InboxRecord = z.infer<typeof inboxRecord>;

export function parseWith<T>(schema: z.ZodType<T>): (value: unknown) => T | undefined {
  return (value) => {
    const parsed = schema.safeParse(value);
    return parsed.success ? parsed.data : undefined;
  };
}
