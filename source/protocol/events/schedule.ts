import { z } from 'zod';
import { lazySchema } from '../lazy-schema.js';
import { defineEvent } from '../define.js';
import { cronRun, scheduleOverview } from '../methods/schedule.js';

export const cronEventPayload = lazySchema(() =>
  z.strictObject({
    phase: z.enum(['started', 'finished', 'skipped', 'missed', 'blocked', 'changed', 'disabled', 'alert']),
    jobId: z.string(),
    name: z.string().optional(),
    run: cronRun.optional(),
    /** Why (skipped, blocked, disabled, alert) or what changed. */
    reason: z.string().optional(),
  }),
);
export type CronEventPayload = z.infer<typeof cronEventPayload>;

export const heartbeatEventPayload = lazySchema(() =>
  z.strictObject({
    phase: z.enum(['started', 'finished', 'skipped', 'alert', 'budget']),
    agentId: z.string(),
    sessionKey: z.string(),
    /** What woke it: interval, manual, cron, hook, retry. */
    trigger: z.string(),
    runId: z.string().optional(),
    /** Finished: `quiet`, `alerted`, `failed`; skipped: why no model call was made. */
    outcome: z.string().optional(),
    reason: z.string().optional(),
    /** The alert text (phase alert) — quiet runs never carry text. */
    text: z.string().optional(),
    tokens: z.number().int().min(0).optional(),
    at: z.number(),
  }),
);
export type HeartbeatEventPayload = z.infer<typeof heartbeatEventPayload>;

export const scheduleEvents = {
  cron: defineEvent({
    name: 'cron',
    description: 'A cron job run started, finished, was skipped, missed or blocked; a job changed or was disabled; a failure alert.',
    payload: () => cronEventPayload,
    scope: 'read',
  }),
  heartbeat: defineEvent({
    name: 'heartbeat',
    description: 'A heartbeat run started, finished (quiet or alerted) or was skipped with its reason; the daily budget was spent.',
    payload: () => heartbeatEventPayload,
    scope: 'read',
  }),
  schedule: defineEvent({
    name: 'schedule',
    description: 'The schedule at a glance after a change (at most twice a second): the 20 soonest and the running jobs, heartbeats, notices.',
    payload: () => scheduleOverview,
    scope: 'read',
  }),
};
