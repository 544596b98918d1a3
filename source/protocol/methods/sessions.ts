import { z } from 'zod';
import { lazySchema } from '../lazy-schema.js';
import { defineMethod } from '../define.js';
import { transcriptEntry } from '../transcript.js';

export const queueModeName = lazySchema(() => z.enum(['steer', 'followup', 'collect', 'interrupt']));
export const thinkingLevelName = lazySchema(() => z.enum(['off', 'minimal', 'low', 'medium', 'high']));
/**
 * How the owner's turns in a session ask before acting: `ask` (the policy's
 * approvals), `auto-edit` (sandboxed commands, which can write only the
 * workspace and have no network, run unasked), `plan` (no tool with side
 * effects at all).
 */
export const approvalModeName = lazySchema(() => z.enum(['ask', 'auto-edit', 'plan']));
export type ApprovalMode = z.infer<typeof approvalModeName>;
export const sessionKind = lazySchema(() => z.enum(['main', 'direct', 'group', 'cron', 'hook', 'subagent']));
export type SessionKind = z.infer<typeof sessionKind>;

export const sessionPeer = lazySchema(() =>
  z.strictObject({
    kind: z.enum(['direct', 'group']),
    id: z.string(),
    /** The person's name in a direct chat, the group's title in a group. */
    name: z.string().optional(),
    /** A forum topic of the group. */
    threadId: z.string().optional(),
  }),
);
export type SessionPeer = z.infer<typeof sessionPeer>;

export const sessionSummary = lazySchema(() =>
  z.strictObject({
    key: z.string(),
    agentId: z.string(),
    sessionId: z.string(),
    kind: sessionKind,
    createdAt: z.number(),
    updatedAt: z.number(),
    label: z.string().optional(),
    model: z.string().optional(),
    thinking: thinkingLevelName.optional(),
    queueMode: queueModeName.optional(),
    approvalMode: approvalModeName.optional(),
    tokens: z.strictObject({
      input: z.number().int().min(0),
      output: z.number().int().min(0),
      /** Tokens in the context window after the last turn. */
      context: z.number().int().min(0),
    }),
    costUsd: z.number().min(0),
    compactionCount: z.number().int().min(0),
    lastChannel: z.string().optional(),
    /** The chat a channel session talks to, from its latest inbound message (the TUI shows `telegram · Ada`). */
    peer: sessionPeer.optional(),
    spawnedBy: z.string().optional(),
    spawnDepth: z.number().int().min(0).optional(),
    /**
     * A child's authority: the principal its root ancestor's spawning turn had,
     * and every ancestor's agent. Its turns get no tool and run no command
     * that any of those would not.
     */
    actingFor: z.strictObject({ principal: z.string(), agents: z.array(z.string()) }).optional(),
    /** Who asked for its latest turn (the least trusted of that turn's messages): its kind names the tool profile the turn had. */
    principal: z.string().optional(),
    /** Live lane state, filled by the gateway. */
    running: z.boolean(),
    queued: z.number().int().min(0),
  }),
);
export type SessionSummary = z.infer<typeof sessionSummary>;

const sessionKeyParam = lazySchema(() => z.string().min(1).max(512));
const idempotencyKey = lazySchema(() => z.string().min(1).max(128).optional());
const sessionResult = lazySchema(() => z.strictObject({ session: sessionSummary }));

export const sessionPatch = lazySchema(() =>
  z.strictObject({
    model: z.string().min(3).nullable().optional(),
    thinking: thinkingLevelName.nullable().optional(),
    queueMode: queueModeName.nullable().optional(),
    approvalMode: approvalModeName.nullable().optional(),
    label: z.string().max(200).nullable().optional(),
  }),
);

export const sessionMethods = {
  'sessions.list': defineMethod({
    name: 'sessions.list',
    description: 'Sessions of one agent, or of all agents, newest first.',
    params: () => z.strictObject({ agentId: z.string().optional() }).optional(),
    result: () => z.strictObject({ sessions: z.array(sessionSummary) }),
    scope: 'read',
    mutating: false,
  }),
  'sessions.get': defineMethod({
    name: 'sessions.get',
    description: 'One session by key.',
    params: () => z.strictObject({ key: sessionKeyParam }),
    result: () => sessionResult,
    scope: 'read',
    mutating: false,
  }),
  'sessions.history': defineMethod({
    name: 'sessions.history',
    description: 'Transcript entries, newest last, paged backwards with beforeId.',
    params: () => z.strictObject({ key: sessionKeyParam, beforeId: z.string().optional(), limit: z.number().int().min(1).max(1000).optional() }),
    result: () => z.strictObject({ sessionId: z.string(), entries: z.array(transcriptEntry), hasMore: z.boolean() }),
    scope: 'read',
    mutating: false,
  }),
  'sessions.new': defineMethod({
    name: 'sessions.new',
    description: 'Start a new transcript for the key (archiving the old one), optionally with a model.',
    params: () => z.strictObject({ key: sessionKeyParam, model: z.string().min(3).optional(), idempotencyKey }),
    result: () => sessionResult,
    scope: 'write',
    mutating: true,
  }),
  'sessions.reset': defineMethod({
    name: 'sessions.reset',
    description: 'Start a new transcript for the key, keeping its settings.',
    params: () => z.strictObject({ key: sessionKeyParam, idempotencyKey }),
    result: () => sessionResult,
    scope: 'write',
    mutating: true,
  }),
  'sessions.delete': defineMethod({
    name: 'sessions.delete',
    description: 'Forget the key; its transcripts are archived, not erased.',
    params: () => z.strictObject({ key: sessionKeyParam, idempotencyKey }),
    result: () => z.strictObject({ deleted: z.boolean() }),
    scope: 'write',
    mutating: true,
  }),
  'sessions.patch': defineMethod({
    name: 'sessions.patch',
    description: 'Change per-session settings; null clears a setting.',
    params: () => z.strictObject({ key: sessionKeyParam, patch: sessionPatch, idempotencyKey }),
    result: () => sessionResult,
    scope: 'write',
    mutating: true,
  }),
};
