import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

/**
 * Transcript entries: one JSON object per line of `<sessionId>.jsonl` after the
 * header, and the shape `sessions.history` returns. Declared once here.
 */
const entryBase = () => ({
  id: z.string().min(1),
  parentId: z.string().nullable(),
  timestamp: z.number(),
});

export const textBlock = lazySchema(() => z.strictObject({ type: z.literal('text'), text: z.string() }));
/** `redacted`: the provider encrypted this thinking; `signature` holds its opaque data, sent back as it came. */
export const thinkingBlock = lazySchema(() =>
  z.strictObject({ type: z.literal('thinking'), text: z.string(), signature: z.string().optional(), redacted: z.literal(true).optional() }),
);
export const toolCallBlock = lazySchema(() =>
  z.strictObject({
    type: z.literal('toolCall'),
    id: z.string(),
    name: z.string(),
    arguments: z.record(z.string(), z.unknown()),
  }),
);
export const assistantBlock = lazySchema(() => z.discriminatedUnion('type', [textBlock, thinkingBlock, toolCallBlock]));
export type AssistantBlock = z.infer<typeof assistantBlock>;

export const usageShape = lazySchema(() =>
  z.strictObject({
    input: z.number().int().min(0),
    output: z.number().int().min(0),
    cacheRead: z.number().int().min(0).optional(),
    cacheWrite: z.number().int().min(0).optional(),
    /** US dollars, when the model's price is known. */
    cost: z.number().min(0).optional(),
  }),
);
export type Usage = z.infer<typeof usageShape>;

export const messageMeta = lazySchema(() =>
  z.strictObject({
    channel: z.string().optional(),
    messageId: z.string().optional(),
    senderId: z.string().optional(),
    senderName: z.string().optional(),
    /** Content from a non-owner or a tool: shown to the model as untrusted. */
    untrusted: z.boolean().optional(),
    /** Who asked (`contact`, `webhook:<route>`, `cron:<job>`, …); absent for the owner. */
    principal: z.string().optional(),
    /** Synthetic messages (heartbeat, cron, memory flush) the user did not type. */
    synthetic: z.string().optional(),
  }),
);

export const userMessageEntry = lazySchema(() =>
  z.strictObject({
    ...entryBase(),
    type: z.literal('message'),
    role: z.literal('user'),
    content: z.string(),
    meta: messageMeta.optional(),
  }),
);

export const assistantMessageEntry = lazySchema(() =>
  z.strictObject({
    ...entryBase(),
    type: z.literal('message'),
    role: z.literal('assistant'),
    content: z.array(assistantBlock),
    model: z.string().optional(),
    usage: usageShape.optional(),
    stopReason: z.enum(['stop', 'toolUse', 'length', 'aborted', 'error']).optional(),
    errorMessage: z.string().optional(),
  }),
);

/**
 * An image or sound a tool returned, kept as a file beside the transcript
 * (`file` is relative to the agent's sessions folder) so a transcript line
 * stays small however large the media is.
 */
export const toolMediaRef = lazySchema(() =>
  z.strictObject({
    kind: z.enum(['image', 'audio']),
    mimeType: z.string(),
    bytes: z.number().int().min(0),
    file: z.string(),
  }),
);
export type ToolMediaRef = z.infer<typeof toolMediaRef>;

export const toolResultEntry = lazySchema(() =>
  z.strictObject({
    ...entryBase(),
    type: z.literal('message'),
    role: z.literal('toolResult'),
    toolCallId: z.string(),
    toolName: z.string(),
    content: z.string(),
    isError: z.boolean(),
    details: z.unknown().optional(),
    media: z.array(toolMediaRef).optional(),
  }),
);

export const modelChangeEntry = lazySchema(() =>
  z.strictObject({
    ...entryBase(),
    type: z.literal('model_change'),
    model: z.string(),
  }),
);

export const compactionEntry = lazySchema(() =>
  z.strictObject({
    ...entryBase(),
    type: z.literal('compaction'),
    summary: z.string(),
    firstKeptEntryId: z.string(),
    tokensBefore: z.number().int().min(0),
    tokensAfter: z.number().int().min(0).optional(),
  }),
);

export const customEntry = lazySchema(() =>
  z.strictObject({
    ...entryBase(),
    type: z.literal('custom'),
    customType: z.string(),
    data: z.unknown(),
  }),
);

export const transcriptEntry = lazySchema(() =>
  z.union([userMessageEntry, assistantMessageEntry, toolResultEntry, modelChangeEntry, compactionEntry, customEntry]),
);
export type TranscriptEntry = z.infer<typeof transcriptEntry>;
export type UserMessageEntry = z.infer<typeof userMessageEntry>;
export type AssistantMessageEntry = z.infer<typeof assistantMessageEntry>;
export type ToolResultEntry = z.infer<typeof toolResultEntry>;
export type CompactionEntry = z.infer<typeof compactionEntry>;

/** First line of every transcript file. */
export const transcriptHeader = lazySchema(() =>
  z.strictObject({
    type: z.literal('session'),
    version: z.literal(1),
    id: z.string(),
    key: z.string(),
    agentId: z.string(),
    createdAt: z.number(),
    /** The transcript this one replaced (after /new or /reset). */
    previousSessionId: z.string().optional(),
  }),
);
export type TranscriptHeader = z.infer<typeof transcriptHeader>;
