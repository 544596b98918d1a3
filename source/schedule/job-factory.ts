import { randomBytes } from 'node:crypto';
import type { CronJob, CronJobInput, CronJobPatch } from '../protocol/index.js';
import { resolveSchedule, ScheduleError } from './schedule-math.js';

export interface JobContext {
  now: number;
  /** Agents that exist now (config). */
  agentIds: readonly string[];
  defaultAgentId: string;
  /** Throws with the reason when a model ref is unknown. */
  checkModel(ref: string): void;
  createdBy: string;
}

/** Lowercase slug of the name plus a short random suffix: readable in file names and session keys. */
function newJobId(name: string): string {
  const slug =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'job';
  return `${slug}-${randomBytes(3).toString('hex')}`;
}

function refuse(message: string): never {
  throw new ScheduleError(message);
}

/** Where a payload runs, checked against the target the user asked for. */
function targetFor(input: Pick<CronJobInput, 'payload' | 'sessionTarget'>): 'main' | 'isolated' {
  const natural = input.payload.kind === 'systemEvent' ? 'main' : 'isolated';
  if (input.sessionTarget && input.sessionTarget !== natural) {
    refuse(
      input.payload.kind === 'systemEvent'
        ? 'A systemEvent payload goes into the main session; sessionTarget "isolated" needs {"kind":"agentTurn","message":"…"} instead.'
        : 'An agentTurn payload runs in its own cron:<jobId> session; sessionTarget "main" needs {"kind":"systemEvent","text":"…"} instead.',
    );
  }
  return natural;
}

function checkAgent(agentId: string, context: JobContext, target: 'main' | 'isolated'): void {
  if (!context.agentIds.includes(agentId))
    refuse(`Unknown agent "${agentId}". Known agents: ${context.agentIds.join(', ')}. Add it under agents.list in claw.json or pick one of these.`);
  // Session keys `cron:<jobId>` belong to the default agent (routing's key grammar).
  if (target === 'isolated' && agentId !== context.defaultAgentId) {
    refuse(
      `Isolated cron sessions (cron:<jobId>) run on the default agent "${context.defaultAgentId}"; for agent "${agentId}" use a systemEvent payload into its main session.`,
    );
  }
}

function checkPayload(job: Pick<CronJob, 'payload'>, context: JobContext): void {
  if (job.payload.kind === 'agentTurn' && job.payload.model) context.checkModel(job.payload.model);
}

/** A new job from what the user sent; every check that can fail now fails here with the fix. */
export function createJob(input: CronJobInput, context: JobContext): CronJob {
  const sessionTarget = targetFor(input);
  const agentId = input.agentId ?? context.defaultAgentId;
  checkAgent(agentId, context, sessionTarget);
  const { anchorAt } = resolveSchedule(input.schedule, context.now);
  const job: CronJob = {
    id: newJobId(input.name),
    name: input.name,
    agentId,
    enabled: input.enabled ?? true,
    schedule: input.schedule,
    anchorAt,
    sessionTarget,
    payload: input.payload,
    delivery: input.delivery ?? { mode: 'none' },
    deleteAfterRun: input.deleteAfterRun ?? input.schedule.kind === 'at',
    catchUp: input.catchUp ?? 'skip',
    retryInterrupted: input.retryInterrupted ?? false,
    allowScheduling: input.allowScheduling ?? false,
    createdAt: context.now,
    createdBy: context.createdBy,
    state: { consecutiveErrors: 0, scheduleErrors: 0 },
  };
  checkPayload(job, context);
  return job;
}

/** The job with the patch applied and checked like a new one; the id, history and counters stay. */
export function patchJob(job: CronJob, patch: CronJobPatch, context: JobContext): CronJob {
  const merged = { ...job, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) } as CronJob & CronJobPatch;
  const sessionTarget = targetFor({
    payload: merged.payload,
    ...(patch.sessionTarget ? { sessionTarget: patch.sessionTarget } : patch.payload ? {} : { sessionTarget: job.sessionTarget }),
  });
  checkAgent(merged.agentId, context, sessionTarget);
  const anchorAt = patch.schedule ? resolveSchedule(patch.schedule, context.now).anchorAt : job.anchorAt;
  const next: CronJob = { ...merged, sessionTarget, anchorAt, state: { ...job.state } };
  checkPayload(next, context);
  if (patch.schedule || patch.enabled === true) {
    next.state = {
      consecutiveErrors: 0,
      scheduleErrors: 0,
      ...(job.state.lastRunAt !== undefined ? { lastRunAt: job.state.lastRunAt } : {}),
      ...(job.state.lastStatus ? { lastStatus: job.state.lastStatus } : {}),
    };
  }
  return next;
}
