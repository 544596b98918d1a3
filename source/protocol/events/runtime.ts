import { z } from 'zod';
import { lazySchema } from '../lazy-schema.js';
import { defineEvent } from '../define.js';
import { sessionSummary } from '../methods/sessions.js';
import { approvalRecord } from '../methods/approvals.js';
import { usageShape } from '../transcript.js';

/** A failed turn's kind: the turn's time ran out, it hit the tool-round limit, a budget stopped it, or something else went wrong. */
export const turnFailure = lazySchema(() => z.enum(['timeout', 'iteration_limit', 'budget', 'error']));
export type TurnFailure = z.infer<typeof turnFailure>;

export const chatEventPayload = lazySchema(() =>
  z.discriminatedUnion('state', [
    z.strictObject({ runId: z.string(), sessionKey: z.string(), state: z.literal('delta'), delta: z.string() }),
    z.strictObject({
      runId: z.string(),
      sessionKey: z.string(),
      state: z.literal('final'),
      /** Full reply text; empty when the reply was suppressed (NO_REPLY). */
      text: z.string(),
      entryId: z.string().optional(),
      suppressed: z.boolean().optional(),
      /** A slash command that started a turn (a skill, an MCP prompt): that turn's run, which carries the real answer. */
      continuedBy: z.string().optional(),
    }),
    z.strictObject({ runId: z.string(), sessionKey: z.string(), state: z.literal('aborted'), reason: z.string() }),
    z.strictObject({
      runId: z.string(),
      sessionKey: z.string(),
      state: z.literal('error'),
      message: z.string(),
      /** What the user can do about it, e.g. "set OPENAI_API_KEY then /retry". */
      hint: z.string().optional(),
      /** Why the turn failed, when it is one of the kinds a client shows differently. */
      failure: turnFailure.optional(),
    }),
  ]),
);
export type ChatEventPayload = z.infer<typeof chatEventPayload>;

export const agentEventPayload = lazySchema(() =>
  z.discriminatedUnion('stream', [
    z.strictObject({
      runId: z.string(),
      sessionKey: z.string(),
      stream: z.literal('lifecycle'),
      phase: z.enum(['queued', 'start', 'end', 'error', 'aborted']),
      model: z.string().optional(),
      detail: z.string().optional(),
    }),
    z.strictObject({
      runId: z.string(),
      sessionKey: z.string(),
      stream: z.literal('tool'),
      phase: z.enum(['start', 'update', 'end']),
      toolCallId: z.string(),
      name: z.string(),
      args: z.record(z.string(), z.unknown()).optional(),
      /** Output so far (update) or the final result (end), possibly truncated for display. */
      output: z.string().optional(),
      isError: z.boolean().optional(),
    }),
    z.strictObject({ runId: z.string(), sessionKey: z.string(), stream: z.literal('usage'), usage: usageShape, model: z.string() }),
    /** The provider failed and the turn waits `delayMs` before trying again (or moves on to a fallback model). */
    z.strictObject({
      runId: z.string(),
      sessionKey: z.string(),
      stream: z.literal('retry'),
      model: z.string(),
      /** Retries of this model so far; 0 when failover moves on to the next model (a fallback), which is no retry. */
      attempt: z.number().int().min(0),
      delayMs: z.number().int().min(0),
      reason: z.string(),
    }),
    /** Something the owner should know about the turn that is not its reply (a context engine that failed and was replaced). */
    z.strictObject({ runId: z.string(), sessionKey: z.string(), stream: z.literal('notice'), text: z.string() }),
    z.strictObject({
      runId: z.string(),
      sessionKey: z.string(),
      stream: z.literal('compaction'),
      phase: z.enum(['start', 'end', 'error']),
      tokensBefore: z.number().int().min(0),
      tokensAfter: z.number().int().min(0).optional(),
      detail: z.string().optional(),
    }),
  ]),
);
export type AgentEventPayload = z.infer<typeof agentEventPayload>;

export const laneState = lazySchema(() =>
  z.strictObject({
    key: z.string(),
    depth: z.number().int().min(0),
    active: z.boolean(),
    runId: z.string().optional(),
    startedAt: z.number().optional(),
    pool: z.enum(['main', 'subagent', 'cron']),
  }),
);
export const lanesPayload = lazySchema(() =>
  z.strictObject({
    lanes: z.array(laneState),
    global: z.strictObject({ active: z.number().int(), limit: z.number().int() }),
    pools: z.record(z.string(), z.strictObject({ active: z.number().int(), limit: z.number().int(), waiting: z.number().int() })),
  }),
);
export type LanesPayload = z.infer<typeof lanesPayload>;

export const contextPart = lazySchema(() => z.strictObject({ name: z.string(), tokens: z.number().int().min(0) }));
export const contextPayload = lazySchema(() =>
  z.strictObject({
    sessionKey: z.string(),
    window: z.number().int().min(0),
    used: z.number().int().min(0),
    parts: z.array(contextPart),
    thresholds: z.strictObject({ flush: z.number().int(), compact: z.number().int() }),
    compactions: z.array(z.strictObject({ at: z.number(), before: z.number().int(), after: z.number().int() })),
  }),
);
export type ContextPayload = z.infer<typeof contextPayload>;

export const subagentStatus = lazySchema(() => z.enum(['queued', 'running', 'done', 'failed', 'cancelled', 'timeout']));
export type SubagentStatus = z.infer<typeof subagentStatus>;

/** One child run in the tree: `key` is the child's session key, `parentKey` the session that spawned it. */
export const subagentNode = lazySchema(() =>
  z.strictObject({
    key: z.string(),
    parentKey: z.string(),
    /** The child run (what `subagents cancel|steer` and the completion's dedupe key name). */
    runId: z.string().optional(),
    label: z.string(),
    status: subagentStatus,
    startedAt: z.number(),
    endedAt: z.number().optional(),
    lastTool: z.string().optional(),
    depth: z.number().int().min(1),
    /** Input + output tokens the child has spent. */
    tokens: z.number().int().min(0).optional(),
    /** Where its completion is: written to the parent's inbox (pending), accepted by the parent (delivered), or suppressed (ANNOUNCE_SKIP). */
    delivery: z.enum(['pending', 'delivered', 'skipped']).optional(),
    /** `acp:<agent>` for an external coding agent; absent for claw's own agent. */
    runtime: z.string().optional(),
  }),
);
export type SubagentNode = z.infer<typeof subagentNode>;

export const runtimeEvents = {
  chat: defineEvent({ name: 'chat', description: 'Reply stream of a run: delta, final, aborted or error.', payload: () => chatEventPayload, scope: 'read' }),
  agent: defineEvent({
    name: 'agent',
    description: 'Run internals: lifecycle, tool calls, usage, compaction.',
    payload: () => agentEventPayload,
    scope: 'read',
  }),
  'sessions.changed': defineEvent({
    name: 'sessions.changed',
    description: 'A session was created, updated, reset or deleted.',
    payload: () => z.strictObject({ key: z.string(), reason: z.enum(['created', 'updated', 'reset', 'deleted']), session: sessionSummary.optional() }),
    scope: 'read',
  }),
  lanes: defineEvent({ name: 'lanes', description: 'Lane queue depths and active runs.', payload: () => lanesPayload, scope: 'read' }),
  context: defineEvent({ name: 'context', description: 'Context window usage of a session by part.', payload: () => contextPayload, scope: 'read' }),
  subagents: defineEvent({
    name: 'subagents',
    description: 'The tree of child runs spawned by sessions.',
    payload: () => z.strictObject({ nodes: z.array(subagentNode) }),
    scope: 'read',
  }),
  'approval.requested': defineEvent({
    name: 'approval.requested',
    description: 'An action waits for an operator decision.',
    payload: () => z.strictObject({ approval: approvalRecord }),
    scope: 'read',
  }),
  'approval.resolved': defineEvent({
    name: 'approval.resolved',
    description: 'An approval was decided or expired.',
    payload: () => z.strictObject({ approval: approvalRecord }),
    scope: 'read',
  }),
};
