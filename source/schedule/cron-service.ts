import { join } from 'node:path';
import type { Clock, TimerHandle } from '../config/index.js';
import type { CronEventPayload, CronJob, CronJobInput, CronJobPatch, CronRun, CronRunStatus, TurnFailure } from '../protocol/index.js';
import { backoffFor, FAILURE_ALERT_AFTER, MAX_TIMER_MS, ONE_SHOT_ATTEMPTS, SCHEDULE_ERRORS_TO_DISABLE } from './cron-policy.js';
import { createJob, patchJob, type JobContext } from './job-factory.js';
import { JobStore } from './job-store.js';
import { RunLog } from './run-log.js';
import { loadCron, needsCron, nextSlotAfter } from './schedule-math.js';
import { interruptRunning, recoverJob, slotMessageId, type RunningSlot, type Settlement, type SlotScheduler } from './cron-settlement.js';

export { STOPPED_REASON } from './cron-settlement.js';

/** How a turn ended, as the lane reports it to the `cron` channel. */
export type TurnStatus = 'replied' | 'failed' | 'aborted' | 'suppressed' | 'dropped';

export interface CronDeps {
  clock: Clock;
  cronDir: string;
  /** Hands a slot's message to the daemon (inbound port); resolves with the lane's run id. */
  dispatch(job: CronJob, messageId: string): Promise<{ runId: string; sessionKey: string }>;
  /** Why the job cannot run now (its agent, model or route is gone), or undefined when it can. */
  blockedReason(job: CronJob): string | undefined;
  /** Which spend cap its run would hit at once (already used up), or undefined. */
  budgetProblem?(job: CronJob): string | undefined;
  /** Delivers a finished run's reply as the job says; only a real delivery has a message id. */
  announce(job: CronJob, text: string, runId: string): Promise<{ delivered: boolean; messageId?: string; error?: string }>;
  /** Input + output tokens the session has used so far. */
  tokensOf(sessionKey: string): number;
  abort(sessionKey: string, runId: string): void;
  /** The run the journal replays after a crash for a slot's message, if any. */
  replayOf(messageId: string): string | undefined;
  emit(payload: CronEventPayload): void;
  notice(text: string): void;
  jobContext(createdBy: string): JobContext;
  warn(message: string): void;
}

/**
 * The cron scheduler: jobs in cron/jobs.json, one timer for the earliest due
 * slot, a durable `started` record before any turn, and a run log that
 * accounts for every slot exactly once (ok, error, interrupted, missed,
 * skipped or blocked). All time comes from the injected clock.
 */
export class CronService {
  readonly store: JobStore;
  readonly runLog: RunLog;
  readonly #jobs = new Map<string, CronJob>();
  readonly #running = new Map<string, RunningSlot>();
  /** Run ids of turns the journal replays after a crash whose slot is already recorded as interrupted. */
  readonly #replays = new Set<string>();
  readonly #pending = new Set<Promise<unknown>>();
  readonly notices: string[] = [];
  #timer: TimerHandle | undefined;
  #saving: Promise<void> = Promise.resolve();
  #stopped = false;
  #dirty = false;

  /** Crash recovery and stop-time interruption (cron-settlement.ts) act on slots through these. */
  readonly #settlement: Settlement;
  readonly #scheduler: SlotScheduler = {
    fire: (job, scheduledAt, attempt) => this.#fire(job, scheduledAt, attempt),
    record: (job, scheduledAt, status, reason) => this.#record(job, scheduledAt, status, reason),
    nextSlot: (job, after) => this.#nextSlot(job, after),
  };

  constructor(private readonly deps: CronDeps) {
    this.store = new JobStore(deps.cronDir);
    this.runLog = new RunLog(join(deps.cronDir, 'runs'));
    this.#settlement = {
      runLog: this.runLog,
      emit: (payload) => deps.emit(payload),
      replays: this.#replays,
      replayOf: (messageId) => deps.replayOf(messageId),
    };
  }

  /**
   * Loads the jobs, settles what a crash or downtime left behind, then arms
   * the timer. croner is loaded first only when a job has a cron expression;
   * from then on every job with one is in memory only after it loaded (here,
   * or in add/update), so the timer's slot computations never wait for it.
   */
  async start(): Promise<void> {
    const loaded = this.store.loadSync();
    if (loaded.notice) this.#notice(loaded.notice);
    if (loaded.jobs.some((job) => needsCron(job.schedule))) await loadCron();
    for (const job of loaded.jobs) this.#jobs.set(job.id, job);
    const now = this.deps.clock.now();
    for (const job of this.#jobs.values()) recoverJob(job, now, this.#settlement, this.#scheduler);
    this.#save();
    this.#arm();
  }

  /** A drain begins: no new slot starts; running ones may still finish. */
  halt(): void {
    this.#stopped = true;
    if (this.#timer) this.deps.clock.clearTimer(this.#timer);
    this.#timer = undefined;
  }

  /**
   * Slots whose turn the drain cut short are recorded `interrupted` now,
   * rather than left for the next start to find; that start still aborts the
   * journal's replay of their turn (see recoverJob).
   */
  async stop(): Promise<void> {
    this.halt();
    for (const slot of this.#running.values()) if (slot.timeout) this.deps.clock.clearTimer(slot.timeout);
    await this.settled();
    if (interruptRunning(this.#running, this.deps.clock.now(), this.#settlement) > 0) this.#save();
    await this.settled();
  }

  /** Resolves once every dispatch, delivery and save started so far has finished. */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
    await this.#saving;
  }

  list(): CronJob[] {
    return [...this.#jobs.values()].sort((a, b) => (a.state.nextRunAt ?? Infinity) - (b.state.nextRunAt ?? Infinity) || a.name.localeCompare(b.name));
  }

  get(id: string): CronJob | undefined {
    return this.#jobs.get(id);
  }

  runs(id: string, limit = 50): CronRun[] {
    return this.runLog.runs(id).reverse().slice(0, limit);
  }

  async add(input: CronJobInput, createdBy: string): Promise<CronJob> {
    if (needsCron(input.schedule)) await loadCron();
    const job = createJob(input, this.deps.jobContext(createdBy));
    job.state.nextRunAt = this.#nextSlot(job, this.deps.clock.now() - 1);
    this.#jobs.set(job.id, job);
    this.#changed(job, 'added');
    return job;
  }

  async update(id: string, patch: CronJobPatch): Promise<CronJob> {
    if (patch.schedule && needsCron(patch.schedule)) await loadCron();
    const job = this.#require(id);
    const next = patchJob(job, patch, this.deps.jobContext(job.createdBy));
    const now = this.deps.clock.now();
    if (patch.schedule || patch.enabled !== undefined) {
      delete next.state.blockedReason;
      const next1 = next.enabled ? this.#nextSlot(next, now) : undefined;
      if (next1 === undefined) delete next.state.nextRunAt;
      else next.state.nextRunAt = next1;
    }
    this.#jobs.set(id, next);
    this.#changed(next, Object.keys(patch).join(', ') || 'nothing');
    return next;
  }

  remove(id: string): boolean {
    const job = this.#jobs.get(id);
    if (!job) return false;
    this.#jobs.delete(id);
    this.#changed(job, 'removed');
    return true;
  }

  /** A manual run: a slot of its own at `now`, outside the schedule. */
  runNow(id: string): CronRun {
    const job = this.#require(id);
    let scheduledAt = this.deps.clock.now();
    const taken = new Set(this.runLog.runs(id).map((run) => run.scheduledAt));
    while (taken.has(scheduledAt)) scheduledAt += 1;
    this.#fire(job, scheduledAt, 1);
    return this.runLog.runs(id).find((run) => run.scheduledAt === scheduledAt) ?? { jobId: id, scheduledAt, status: 'running' };
  }

  /** The job whose cron turn is running in this session now (tools ask this). */
  activeJobFor(sessionKey: string): CronJob | undefined {
    for (const slot of this.#running.values()) if (slot.sessionKey === sessionKey && !slot.done) return slot.job;
    return undefined;
  }

  /** The next `count` slots over all enabled jobs, soonest first. */
  nextRuns(count: number): Array<{ jobId: string; name: string; at: number }> {
    return this.list()
      .filter((job) => job.enabled && job.state.nextRunAt !== undefined)
      .slice(0, count)
      .map((job) => ({ jobId: job.id, name: job.name, at: job.state.nextRunAt! }));
  }

  /** A turn the lanes started: a crash replay of a slot already settled is stopped before it spends tokens. */
  turnStarted(sessionKey: string, runId: string): void {
    if (this.#replays.has(runId)) this.deps.abort(sessionKey, runId);
  }

  /** The lane's outcome for a message on the `cron` channel; false when it is not a slot of ours. */
  outcome(messageId: string, status: TurnStatus, text: string, failure?: TurnFailure): boolean {
    const slot = this.#running.get(messageId);
    if (!slot) return messageId.startsWith('cron:');
    if (slot.done) return true;
    if (failure === 'budget') {
      // A cap stopped the run before a model call: no failure of the job's, so no error backoff.
      this.#skipped(messageId, slot, `budget: ${text}`);
      return true;
    }
    const ok = status === 'replied' || status === 'suppressed';
    const finish = (extra: { deliveredMessageId?: string; error?: string }): void =>
      this.#finish(messageId, slot, ok && !extra.error ? 'ok' : 'error', {
        ...(ok ? {} : { error: text || `the turn ended ${status}` }),
        ...extra,
      });
    if (!ok || slot.job.delivery.mode === 'none' || status === 'suppressed' || !text.trim()) {
      finish({});
      return true;
    }
    slot.done = true;
    this.#track(
      this.deps.announce(slot.job, text, slot.runId ?? messageId).then(
        (result) => {
          slot.done = false;
          finish(
            result.delivered
              ? result.messageId
                ? { deliveredMessageId: result.messageId }
                : {}
              : { error: `the reply was not delivered: ${result.error ?? 'unknown reason'}` },
          );
        },
        (error: unknown) => {
          slot.done = false;
          finish({ error: `the reply was not delivered: ${String(error)}` });
        },
      ),
    );
    return true;
  }

  #require(id: string): CronJob {
    const job = this.#jobs.get(id);
    if (!job) throw new Error(`No cron job "${id}". List the jobs with \`claw cron list\`.`);
    return job;
  }

  /** The slot after `after`; a schedule that cannot be computed counts toward disabling the job. */
  #nextSlot(job: CronJob, after: number): number | undefined {
    try {
      const next = nextSlotAfter(job, after);
      job.state.scheduleErrors = 0;
      return next;
    } catch (error) {
      job.state.scheduleErrors += 1;
      const message = error instanceof Error ? error.message : String(error);
      job.state.lastError = message;
      if (job.state.scheduleErrors >= SCHEDULE_ERRORS_TO_DISABLE) {
        this.#disable(job, `its schedule failed ${job.state.scheduleErrors} times in a row (${message})`);
        return undefined;
      }
      return after + backoffFor(job.state.scheduleErrors);
    }
  }

  #disable(job: CronJob, why: string): void {
    job.enabled = false;
    job.state.blockedReason = `disabled: ${why}`;
    delete job.state.nextRunAt;
    this.#notice(`Cron job "${job.name}" (${job.id}) was disabled: ${why}. Fix it, then \`claw cron enable ${job.id}\`.`);
    this.deps.emit({ phase: 'disabled', jobId: job.id, name: job.name, reason: why });
  }

  #arm(): void {
    if (this.#stopped) return;
    if (this.#timer) this.deps.clock.clearTimer(this.#timer);
    let soonest = Infinity;
    for (const job of this.#jobs.values()) {
      if (job.enabled && job.state.nextRunAt !== undefined && job.state.nextRunAt < soonest) soonest = job.state.nextRunAt;
    }
    const now = this.deps.clock.now();
    const wait = Math.min(Math.max(0, soonest - now), MAX_TIMER_MS);
    this.#timer = this.deps.clock.setTimer(() => {
      this.#timer = undefined;
      this.#tick();
    }, wait);
  }

  #tick(): void {
    const now = this.deps.clock.now();
    for (const job of [...this.#jobs.values()]) {
      const due = job.state.nextRunAt;
      if (!job.enabled || due === undefined || due > now) continue;
      job.state.nextRunAt = this.#nextSlot(job, due);
      // Slots that fell behind (a long pause) are accounted for, never silently dropped.
      while (job.state.nextRunAt !== undefined && job.state.nextRunAt <= now && job.enabled) {
        this.#record(job, job.state.nextRunAt, 'skipped', 'the scheduler fell behind; only the oldest due slot ran');
        job.state.nextRunAt = this.#nextSlot(job, job.state.nextRunAt);
      }
      this.#fire(job, due, 1);
    }
    this.#save();
    this.#arm();
  }

  #fire(job: CronJob, scheduledAt: number, attempt: number): void {
    const now = this.deps.clock.now();
    if ([...this.#running.values()].some((slot) => slot.job.id === job.id && !slot.done)) {
      this.#record(job, scheduledAt, 'skipped', 'the previous run of this job is still going');
      return;
    }
    const blocked = this.deps.blockedReason(job);
    if (blocked) {
      job.state.blockedReason = blocked;
      this.#record(job, scheduledAt, 'blocked', blocked);
      return;
    }
    delete job.state.blockedReason;
    const overBudget = this.deps.budgetProblem?.(job);
    if (overBudget) {
      this.#record(job, scheduledAt, 'skipped', `budget: ${overBudget}`);
      return;
    }
    this.runLog.started(job.id, scheduledAt, now, attempt);
    const messageId = slotMessageId(job.id, scheduledAt, attempt);
    const slot: RunningSlot = { job, scheduledAt, attempt, startedAt: now, tokensBefore: 0, done: false };
    this.#running.set(messageId, slot);
    job.state.runningSince = now;
    this.deps.emit({ phase: 'started', jobId: job.id, name: job.name, run: { jobId: job.id, scheduledAt, status: 'running', startedAt: now, attempt } });
    this.#track(this.#dispatch(job, slot, messageId));
  }

  async #dispatch(job: CronJob, slot: RunningSlot, messageId: string): Promise<void> {
    try {
      const sessionKey = job.sessionTarget === 'isolated' ? `cron:${job.id}` : `agent:${job.agentId}:main`;
      slot.sessionKey = sessionKey;
      slot.tokensBefore = this.deps.tokensOf(sessionKey);
      const { runId } = await this.deps.dispatch(job, messageId);
      slot.runId = runId;
      if (!slot.done) this.runLog.dispatched(job.id, slot.scheduledAt, runId);
      const timeoutSeconds = job.payload.kind === 'agentTurn' ? job.payload.timeoutSeconds : undefined;
      if (timeoutSeconds !== undefined && !slot.done) {
        slot.timeout = this.deps.clock.setTimer(() => this.deps.abort(sessionKey, runId), timeoutSeconds * 1000);
      }
    } catch (error) {
      this.#finish(messageId, slot, 'error', { error: `the run could not be started: ${error instanceof Error ? error.message : String(error)}` });
    }
  }

  #finish(messageId: string, slot: RunningSlot, status: CronRunStatus, extra: { error?: string; deliveredMessageId?: string }): void {
    if (slot.done) return;
    slot.done = true;
    this.#running.delete(messageId);
    if (slot.timeout) this.deps.clock.clearTimer(slot.timeout);
    const { job, scheduledAt } = slot;
    const now = this.deps.clock.now();
    const tokens = slot.sessionKey ? Math.max(0, this.deps.tokensOf(slot.sessionKey) - slot.tokensBefore) : 0;
    this.runLog.finished(job.id, { scheduledAt, status, finishedAt: now, tokens, ...extra });
    delete job.state.runningSince;
    job.state.lastRunAt = slot.startedAt;
    job.state.lastStatus = status;
    const run: CronRun = { jobId: job.id, scheduledAt, status, startedAt: slot.startedAt, finishedAt: now, tokens, attempt: slot.attempt, ...extra };
    this.deps.emit({ phase: 'finished', jobId: job.id, name: job.name, run });
    if (status === 'ok') {
      job.state.consecutiveErrors = 0;
      delete job.state.lastError;
      if (job.schedule.kind === 'at') {
        if (job.deleteAfterRun) this.#jobs.delete(job.id);
        else job.enabled = false;
      }
    } else {
      this.#failed(job, extra.error ?? 'the run failed', now);
    }
    if (this.#jobs.has(job.id)) this.#jobs.set(job.id, job);
    this.#save();
    this.#arm();
  }

  /** A started slot that a spend cap stopped before its first model call. */
  #skipped(messageId: string, slot: RunningSlot, reason: string): void {
    slot.done = true;
    this.#running.delete(messageId);
    if (slot.timeout) this.deps.clock.clearTimer(slot.timeout);
    delete slot.job.state.runningSince;
    this.#record(slot.job, slot.scheduledAt, 'skipped', reason);
    this.#save();
    this.#arm();
  }

  #failed(job: CronJob, error: string, now: number): void {
    job.state.consecutiveErrors += 1;
    job.state.lastError = error;
    const errors = job.state.consecutiveErrors;
    if (errors === FAILURE_ALERT_AFTER) {
      const text = `Cron job "${job.name}" (${job.id}) failed ${errors} times in a row; last error: ${error}. See \`claw cron runs ${job.id}\`.`;
      this.#notice(text);
      this.deps.emit({ phase: 'alert', jobId: job.id, name: job.name, reason: text });
    }
    const resumeAt = now + backoffFor(errors);
    if (job.schedule.kind === 'at') {
      if (errors >= ONE_SHOT_ATTEMPTS) this.#disable(job, `it failed ${errors} times in a row (${error})`);
      else if (job.enabled) job.state.nextRunAt = resumeAt;
      return;
    }
    // Slots inside the backoff window are recorded as skipped rather than run into the same failure.
    while (job.enabled && job.state.nextRunAt !== undefined && job.state.nextRunAt < resumeAt) {
      this.#record(job, job.state.nextRunAt, 'skipped', `error backoff after ${errors} failure(s) in a row`);
      job.state.nextRunAt = this.#nextSlot(job, job.state.nextRunAt);
    }
  }

  /** A slot that ends without a turn (missed, skipped, blocked): one line, one event. */
  #record(job: CronJob, scheduledAt: number, status: 'missed' | 'skipped' | 'blocked', reason: string): void {
    const now = this.deps.clock.now();
    this.runLog.finished(job.id, { scheduledAt, status, finishedAt: now, reason });
    job.state.lastStatus = status;
    this.deps.emit({ phase: status, jobId: job.id, name: job.name, reason, run: { jobId: job.id, scheduledAt, status, finishedAt: now, reason } });
  }

  #changed(job: CronJob, what: string): void {
    this.deps.emit({ phase: 'changed', jobId: job.id, name: job.name, reason: what });
    this.#save();
    this.#arm();
  }

  #notice(text: string): void {
    this.notices.push(text);
    this.deps.notice(text);
  }

  /** Coalesced: changes made while a write is in flight go out together in the next one. */
  #save(): void {
    if (this.#dirty) return;
    this.#dirty = true;
    this.#saving = this.#saving
      .then(async () => {
        this.#dirty = false;
        await this.store.save([...this.#jobs.values()]);
      })
      .catch((error: unknown) => this.deps.warn(`cron/jobs.json not written: ${String(error)}`));
  }

  #track(promise: Promise<unknown>): void {
    this.#pending.add(promise);
    void promise.finally(() => this.#pending.delete(promise));
  }
}
