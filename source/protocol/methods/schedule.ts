import { z } from 'zod';
import { lazySchema } from '../lazy-schema.js';
import { defineMethod } from '../define.js';
import { replyRoute } from '../route.js';

/** When a job runs. `at` and `every` are written as the user typed them (`20m`, ISO); `cron` uses croner syntax. */
export const cronScheduleSpec = lazySchema(() =>
  z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('at'), at: z.string().min(1) }),
    z.strictObject({ kind: z.literal('every'), every: z.string().min(1) }),
    z.strictObject({
      kind: z.literal('cron'),
      expr: z.string().min(1),
      /** IANA zone (`Europe/Berlin`); default UTC. */
      tz: z.string().min(1).optional(),
      /** Top-of-hour expressions are staggered up to 5 min unless this is set. */
      exact: z.boolean().optional(),
    }),
  ]),
);
export type CronScheduleSpec = z.infer<typeof cronScheduleSpec>;

export const cronPayload = lazySchema(() =>
  z.discriminatedUnion('kind', [
    /** A line of text dropped into the agent's main session. */
    z.strictObject({ kind: z.literal('systemEvent'), text: z.string().min(1) }),
    /** A full turn in the job's own `cron:<jobId>` session. */
    z.strictObject({
      kind: z.literal('agentTurn'),
      message: z.string().min(1),
      model: z.string().min(3).optional(),
      timeoutSeconds: z.number().int().min(1).max(86_400).optional(),
    }),
  ]),
);
export type CronPayload = z.infer<typeof cronPayload>;

export const cronDelivery = lazySchema(() =>
  z.discriminatedUnion('mode', [
    z.strictObject({ mode: z.literal('none') }),
    /** `main`: the agent's main session; a route: a channel peer. */
    z.strictObject({ mode: z.literal('announce'), to: z.union([z.literal('main'), replyRoute]) }),
  ]),
);
export type CronDelivery = z.infer<typeof cronDelivery>;

export const cronRunStatus = lazySchema(() => z.enum(['ok', 'error', 'interrupted', 'missed', 'skipped', 'blocked']));
export type CronRunStatus = z.infer<typeof cronRunStatus>;

/** What a user, the CLI or the agent sends to create a job; the gateway fills in the rest. */
export const cronJobInput = lazySchema(() =>
  z.strictObject({
    name: z.string().trim().min(1).max(80),
    agentId: z.string().min(1).optional(),
    enabled: z.boolean().optional(),
    schedule: cronScheduleSpec,
    /** Default: `main` for systemEvent, `isolated` for agentTurn; anything else is refused. */
    sessionTarget: z.enum(['main', 'isolated']).optional(),
    payload: cronPayload,
    delivery: cronDelivery.optional(),
    /** One-shot `at` jobs: delete after a successful run (default true for `at`). */
    deleteAfterRun: z.boolean().optional(),
    /** Slots missed while the gateway was down: `skip` (default) or run `once`. */
    catchUp: z.enum(['skip', 'once']).optional(),
    /** Re-run a slot once when the gateway died in the middle of it. */
    retryInterrupted: z.boolean().optional(),
    /** Whether turns of this job may create or change cron jobs themselves. */
    allowScheduling: z.boolean().optional(),
  }),
);
export type CronJobInput = z.infer<typeof cronJobInput>;

export const cronJobPatch = lazySchema(() => cronJobInput.partial());
export type CronJobPatch = z.infer<typeof cronJobPatch>;

export const cronJobState = lazySchema(() =>
  z.strictObject({
    nextRunAt: z.number().optional(),
    lastRunAt: z.number().optional(),
    lastStatus: cronRunStatus.optional(),
    lastError: z.string().optional(),
    /** Failed runs in a row (backoff and the failure alert count these). */
    consecutiveErrors: z.number().int().min(0),
    /** Schedules that could not be computed in a row; 3 disable the job. */
    scheduleErrors: z.number().int().min(0),
    /** Why the job is not running now (blocked by validation, disabled after errors). */
    blockedReason: z.string().optional(),
    runningSince: z.number().optional(),
  }),
);
export type CronJobState = z.infer<typeof cronJobState>;

export const cronJob = lazySchema(() =>
  z.strictObject({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/),
    name: z.string(),
    agentId: z.string(),
    enabled: z.boolean(),
    schedule: cronScheduleSpec,
    /** For `every` jobs: the instant the interval counts from. For `at` jobs: the resolved time. */
    anchorAt: z.number(),
    sessionTarget: z.enum(['main', 'isolated']),
    payload: cronPayload,
    delivery: cronDelivery,
    deleteAfterRun: z.boolean(),
    catchUp: z.enum(['skip', 'once']),
    retryInterrupted: z.boolean(),
    allowScheduling: z.boolean(),
    createdAt: z.number(),
    /** Who made it: `user` (CLI, RPC) or the session key of the turn that added it. */
    createdBy: z.string(),
    state: cronJobState,
  }),
);
export type CronJob = z.infer<typeof cronJob>;

/** One slot of a job, as its run log tells it. */
export const cronRun = lazySchema(() =>
  z.strictObject({
    jobId: z.string(),
    scheduledAt: z.number(),
    status: z.union([cronRunStatus, z.literal('running')]),
    startedAt: z.number().optional(),
    finishedAt: z.number().optional(),
    tokens: z.number().int().min(0).optional(),
    deliveredMessageId: z.string().optional(),
    runId: z.string().optional(),
    error: z.string().optional(),
    /** Why a slot was skipped, blocked or missed. */
    reason: z.string().optional(),
    attempt: z.number().int().min(1).optional(),
  }),
);
export type CronRun = z.infer<typeof cronRun>;

export const heartbeatAgentStatus = lazySchema(() =>
  z.strictObject({
    agentId: z.string(),
    enabled: z.boolean(),
    paused: z.boolean(),
    everyMs: z.number(),
    sessionKey: z.string(),
    nextRunAt: z.number().optional(),
    lastRunAt: z.number().optional(),
    lastOutcome: z.string().optional(),
    lastReason: z.string().optional(),
    tokensToday: z.number().int().min(0),
    dailyTokenBudget: z.number().int().min(0).optional(),
    /** Set once the day's budget is spent: heartbeats stop until the next UTC day. */
    budgetExhaustedAt: z.number().optional(),
    running: z.boolean(),
  }),
);
export type HeartbeatAgentStatus = z.infer<typeof heartbeatAgentStatus>;

export const scheduleOverview = lazySchema(() =>
  z.strictObject({
    jobs: z.array(cronJob),
    heartbeats: z.array(heartbeatAgentStatus),
    /** Notices for the operator (jobs.json corrupt, a job disabled, a budget spent). */
    notices: z.array(z.string()),
    /** How many jobs there are, when `jobs` lists only the soonest and running ones (the `schedule` event, the snapshot). */
    totalJobs: z.number().int().min(0).optional(),
  }),
);
export type ScheduleOverview = z.infer<typeof scheduleOverview>;

const jobRef = lazySchema(() => z.strictObject({ id: z.string().min(1) }));

export const scheduleMethods = {
  'schedule.list': defineMethod({
    name: 'schedule.list',
    description: 'Cron jobs with their next run and last status, heartbeat state per agent, and operator notices.',
    params: () => z.strictObject({}).optional(),
    result: () => scheduleOverview,
    scope: 'read',
    mutating: false,
  }),
  'schedule.runs': defineMethod({
    name: 'schedule.runs',
    description: 'The run log of one cron job, newest first.',
    params: () => z.strictObject({ id: z.string().min(1), limit: z.number().int().min(1).max(1000).optional() }),
    result: () => z.strictObject({ runs: z.array(cronRun) }),
    scope: 'read',
    mutating: false,
  }),
  'cron.add': defineMethod({
    name: 'cron.add',
    description: 'Creates a cron job; a bad schedule, zone, agent or payload is refused with the reason.',
    params: () => z.strictObject({ job: cronJobInput, idempotencyKey: z.string().optional() }),
    result: () => z.strictObject({ job: cronJob }),
    scope: 'write',
    mutating: true,
  }),
  'cron.update': defineMethod({
    name: 'cron.update',
    description: 'Changes a cron job (any field of cron.add, plus enabled).',
    params: () => z.strictObject({ id: z.string().min(1), patch: cronJobPatch, idempotencyKey: z.string().optional() }),
    result: () => z.strictObject({ job: cronJob }),
    scope: 'write',
    mutating: true,
  }),
  'cron.remove': defineMethod({
    name: 'cron.remove',
    description: 'Deletes a cron job (its run log stays).',
    params: () => jobRef.extend({ idempotencyKey: z.string().optional() }),
    result: () => z.strictObject({ removed: z.boolean() }),
    scope: 'write',
    mutating: true,
  }),
  'cron.run': defineMethod({
    name: 'cron.run',
    description: 'Runs a cron job now, as a manual slot of its own.',
    params: () => jobRef.extend({ idempotencyKey: z.string().optional() }),
    result: () => z.strictObject({ run: cronRun }),
    scope: 'write',
    mutating: true,
  }),
  'heartbeat.now': defineMethod({
    name: 'heartbeat.now',
    description: 'Wakes the heartbeat of an agent now (reason manual); the free pre-checks still apply.',
    params: () => z.strictObject({ agentId: z.string().min(1).optional(), idempotencyKey: z.string().optional() }).optional(),
    result: () => z.strictObject({ outcome: z.string(), reason: z.string().optional() }),
    scope: 'write',
    mutating: true,
  }),
  'heartbeat.pause': defineMethod({
    name: 'heartbeat.pause',
    description: 'Pauses (paused: true) or resumes the heartbeat of an agent until changed again.',
    params: () => z.strictObject({ agentId: z.string().min(1).optional(), paused: z.boolean(), idempotencyKey: z.string().optional() }),
    result: () => heartbeatAgentStatus,
    scope: 'write',
    mutating: true,
  }),
};
