import { z } from 'zod';
import { queueModeName, replyRoute, lazySchema } from '../protocol/index.js';

export const acceptedRecord = lazySchema(() =>
  z.object({
    t: z.literal('accepted'),
    seq: z.number().int().min(1),
    at: z.number(),
    /** `<channel>\u0000<messageId>`: the same message from the same channel is run once. */
    dedupeKey: z.string(),
    runId: z.string(),
    messageId: z.string(),
    sessionKey: z.string(),
    agentId: z.string(),
    channel: z.string(),
    text: z.string(),
    mode: queueModeName,
    senderId: z.string().optional(),
    senderName: z.string().optional(),
    /** From someone other than the channel's owner: the model sees it fenced as untrusted. */
    untrusted: z.literal(true).optional(),
    /** Who asked; absent in journals written before principals (read as the owner, or a contact when untrusted). */
    principal: z.string().optional(),
    /** Absent in journals written before routes were kept: such replies go to the session's events only. */
    route: replyRoute.optional(),
    /** A heartbeat or cron turn: kept out of chat views (see InboundMessage.background). */
    background: z.literal(true).optional(),
    /** The model for this message's turn, when its trigger names one (heartbeat.model, /hooks/agent). */
    model: z.string().optional(),
    timeoutSeconds: z.number().int().min(1).optional(),
  }),
);
export type AcceptedRecord = z.infer<typeof acceptedRecord>;

export const outcomeStatuses = ['replied', 'failed', 'aborted', 'suppressed', 'dropped'] as const;
export type OutcomeStatus = (typeof outcomeStatuses)[number];

export const outcomeRecord = lazySchema(() =>
  z.object({
    t: z.literal('outcome'),
    seq: z.number().int().min(1),
    at: z.number(),
    status: z.enum(outcomeStatuses),
    reason: z.string().optional(),
    /** The run that answered it, when collect or steer merged it into another message's run. */
    turnRunId: z.string().optional(),
  }),
);
export type OutcomeRecord = z.infer<typeof outcomeRecord>;

export const journalRecord = lazySchema(() => z.discriminatedUnion('t', [acceptedRecord, outcomeRecord]));
export type JournalRecord = z.infer<typeof journalRecord>;
