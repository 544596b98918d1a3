import type { TimerHandle } from '../config/index.js';
import type { CronEventPayload, CronJob } from '../protocol/index.js';
import type { RunLog } from './run-log.js';
import { slotsBetween } from './schedule-math.js';

/** A slot whose turn is under way: from its `started` line until its outcome is recorded. */
export interface RunningSlot {
  job: CronJob;
  scheduledAt: number;
  attempt: number;
  startedAt: number;
  sessionKey?: string;
  runId?: string;
  tokensBefore: number;
  timeout?: TimerHandle;
  /** Set by the slot's own error path, so a late outcome cannot finish it twice. */
  done: boolean;
}

export const slotMessageId = (jobId: string, scheduledAt: number, attempt: number): string => `cron:${jobId}:${scheduledAt}:${attempt}`;

/** Why a slot the drain cut short ended. */
export const STOPPED_REASON = 'the gateway was stopped while this run was in progress';

/** What settlement asks of the scheduler: starting a slot, recording one that ends without a turn, the next slot. */
export interface SlotScheduler {
  fire(job: CronJob, scheduledAt: number, attempt: number): void;
  record(job: CronJob, scheduledAt: number, status: 'missed' | 'skipped' | 'blocked', reason: string): void;
  nextSlot(job: CronJob, after: number): number | undefined;
}

export interface Settlement {
  runLog: RunLog;
  emit(payload: CronEventPayload): void;
  /** Run ids of turns the journal replays after a crash whose slot is already recorded as interrupted. */
  replays: Set<string>;
  /** The run the journal replays for a slot's message, when it has one (the run log may not: a crash can fall between the two). */
  replayOf(messageId: string): string | undefined;
}

/**
 * At start: settles what a crash or the downtime left of one job. A slot that
 * only started is recorded `interrupted` (and run again once as attempt 2 when
 * the job says `retryInterrupted`), the journal's replay of its turn is marked
 * for aborting, and slots that fell in the downtime are `missed` (or the
 * latest one runs, `catchUp: once`).
 */
export function recoverJob(job: CronJob, now: number, { runLog, emit, replays, replayOf }: Settlement, scheduler: SlotScheduler): void {
  const runs = runLog.runs(job.id);
  const last = runs[runs.length - 1];
  // The journal knows a slot's run by its message id even when the run log never got the `dispatched` line.
  const replayed = (run: { scheduledAt: number; attempt?: number | undefined; runId?: string | undefined }): string | undefined =>
    run.runId ?? replayOf(slotMessageId(job.id, run.scheduledAt, run.attempt ?? 1));
  if (last?.status === 'interrupted' && last.reason === STOPPED_REASON) {
    // Settled at the last stop, but its message is still unfinished in the journal: that replay must not run.
    const runId = replayed(last);
    if (runId) replays.add(runId);
    if (job.retryInterrupted && (last.attempt ?? 1) === 1) scheduler.fire(job, last.scheduledAt, 2);
  }
  for (const run of runs) {
    if (run.status !== 'running') continue;
    runLog.finished(job.id, {
      scheduledAt: run.scheduledAt,
      status: 'interrupted',
      finishedAt: now,
      reason: 'the gateway stopped while this run was in progress',
    });
    const runId = replayed(run);
    if (runId) replays.add(runId);
    emit({ phase: 'finished', jobId: job.id, name: job.name, run: { ...run, status: 'interrupted', finishedAt: now } });
    job.state.lastStatus = 'interrupted';
    if (job.retryInterrupted && (run.attempt ?? 1) === 1) scheduler.fire(job, run.scheduledAt, 2);
  }
  delete job.state.runningSince;
  if (!job.enabled) return;
  const lastSlot = runs.length > 0 ? runs[runs.length - 1]!.scheduledAt : undefined;
  const from = Math.max(lastSlot ?? -Infinity, (job.state.nextRunAt ?? job.createdAt) - 1);
  const missed = slotsBetween(job, from, now);
  const runOnce = job.catchUp === 'once' ? missed.pop() : undefined;
  for (const scheduledAt of missed) scheduler.record(job, scheduledAt, 'missed', 'the gateway was not running at this time (catchUp: skip)');
  if (runOnce !== undefined) scheduler.fire(job, runOnce, 1);
  job.state.nextRunAt = scheduler.nextSlot(job, Math.max(now, runOnce ?? -Infinity));
}

/**
 * At stop: every slot whose turn the drain cut short is recorded
 * `interrupted` now, rather than left for the next start to find. Resolves
 * with how many were; the caller saves the jobs.
 */
export function interruptRunning(running: Map<string, RunningSlot>, now: number, { runLog, emit }: Settlement): number {
  let interrupted = 0;
  for (const [messageId, slot] of running) {
    if (slot.done) continue;
    slot.done = true;
    running.delete(messageId);
    const { job, scheduledAt } = slot;
    runLog.finished(job.id, { scheduledAt, status: 'interrupted', finishedAt: now, reason: STOPPED_REASON });
    delete job.state.runningSince;
    job.state.lastStatus = 'interrupted';
    emit({
      phase: 'finished',
      jobId: job.id,
      name: job.name,
      run: { jobId: job.id, scheduledAt, status: 'interrupted', startedAt: slot.startedAt, finishedAt: now, attempt: slot.attempt, reason: STOPPED_REASON },
    });
    interrupted += 1;
  }
  return interrupted;
}
