import { leastTrusted, type LanesPayload } from '../protocol/index.js';
import { ActiveTurn, type TurnEmitter } from './active-turn.js';
import { systemClock, type Clock } from '../config/index.js';
import { newLane, takeBatch, type Lane } from './lane.js';
import { makeRoom } from './lane-overflow.js';
import type { PoolName, QueueConfig } from './modes.js';
import { Pool } from './pool.js';
import { cancelResume, lendSlot } from './slot-lending.js';
import type { OutcomeStatus } from './journal-records.js';
import type { QueuedMessage, SessionHandle, TurnOutcome, TurnRunner } from './turn-runner.js';
import { appendUserMessages, overflowNote, rerunEntry } from './turn-io.js';
import { recordOutcome, settleAnswered, type OutcomeDeps, type OutcomeDetail } from './turn-settlement.js';

export type EnqueueStatus = 'started' | 'queued' | 'dropped';

export interface LaneQueueOptions {
  config: Pick<QueueConfig, 'cap' | 'drop' | 'debounceMs' | 'lanes' | 'watchdogSeconds'>;
  runner: TurnRunner;
  openSession(sessionKey: string, agentId: string): Promise<SessionHandle>;
  /** Exactly once per message: how it ended. */
  onOutcome(message: QueuedMessage, status: OutcomeStatus, detail: OutcomeDetail): void;
  emit: TurnEmitter;
  /** Something went wrong that no message's outcome can carry (for the log). */
  warn?(message: string): void;
  clock?: Clock;
}

/**
 * Lanes: one serial lane per session key, turns capped per pool, queue modes,
 * overflow policy and the watchdog. Everything is a function of the calls
 * made and the injected clock.
 */
export class LaneQueue {
  private readonly lanes = new Map<string, Lane>();
  private readonly pools: Record<PoolName, Pool>;
  private readonly clock: Clock;
  private stopped = false;
  private readonly settledWaiters = new Set<() => void>();
  private readonly changeListeners = new Set<() => void>();
  private readonly outcomes: OutcomeDeps;

  constructor(private readonly options: LaneQueueOptions) {
    this.clock = options.clock ?? systemClock;
    this.outcomes = { emit: options.emit.bind(options), onOutcome: options.onOutcome.bind(options), guard: (what, step) => this.guard(what, step) };
    const { lanes } = options.config;
    this.pools = { main: new Pool('main', lanes.main), subagent: new Pool('subagent', lanes.subagent), cron: new Pool('cron', lanes.cron) };
  }

  /** Queues a message; `force` skips the cap (re-queueing after a restart). */
  enqueue(message: QueuedMessage, options: { force?: boolean } = {}): EnqueueStatus {
    const lane = this.lane(message.sessionKey);
    const active = lane.active;
    if (active && !active.finished && message.mode === 'steer') {
      if (!options.force && !makeRoom(lane, message, this.options.config, this.options)) return 'dropped';
      active.steered.push(message);
      this.changed();
      return 'queued';
    }
    if (!options.force && !makeRoom(lane, message, this.options.config, this.options)) return 'dropped';
    const busy = lane.active !== undefined || lane.waitingForSlot || lane.queue.length > 0;
    if (message.mode === 'interrupt') {
      lane.queue.unshift(message);
      if (lane.active) this.abortTurn(lane.active, 'interrupted by a newer message');
    } else {
      lane.queue.push(message);
    }
    lane.lastArrival = this.clock.now();
    if (busy && !lane.active && !lane.waitingForSlot && lane.queue[0]?.mode === 'collect')
      lane.debounceUntil = lane.lastArrival + this.options.config.debounceMs;
    this.pump(lane);
    this.changed();
    return lane.active?.messages.includes(message) ? 'started' : 'queued';
  }

  /**
   * After a restart: puts unfinished messages back in acceptance order, all of
   * a lane's at once before any starts, so a `collect` batch the crash
   * interrupted is collected again as one turn instead of split into several.
   * The cap does not apply: these were acknowledged already.
   */
  restore(messages: readonly QueuedMessage[]): void {
    const touched = new Set<Lane>();
    for (const message of [...messages].sort((a, b) => a.seq - b.seq)) {
      const lane = this.lane(message.sessionKey);
      lane.queue.push({ ...message, restored: true });
      lane.lastArrival = this.clock.now();
      touched.add(lane);
    }
    for (const lane of touched) this.pump(lane);
    this.changed();
  }

  /** Aborts the running turn of a session (only `runId` when given); the queue stays. */
  abort(sessionKey: string, runId?: string): { aborted: boolean; runId?: string } {
    const active = this.lanes.get(sessionKey)?.active;
    if (!active || active.finished || (runId !== undefined && runId !== active.runId)) return { aborted: false };
    this.abortTurn(active, 'aborted by request');
    return { aborted: true, runId: active.runId };
  }

  laneInfo(sessionKey: string): { running: boolean; queued: number } {
    const lane = this.lanes.get(sessionKey);
    if (!lane) return { running: false, queued: 0 };
    return { running: lane.active !== undefined, queued: lane.queue.length + (lane.active?.steered.length ?? 0) };
  }

  snapshot(): LanesPayload {
    const lanes: LanesPayload['lanes'] = [];
    for (const lane of this.lanes.values()) {
      const info = this.laneInfo(lane.key);
      lanes.push({
        key: lane.key,
        depth: info.queued,
        active: info.running,
        pool: lane.pool,
        ...(lane.active ? { runId: lane.active.runId, startedAt: lane.active.startedAt } : {}),
      });
    }
    const pools: LanesPayload['pools'] = {};
    for (const pool of Object.values(this.pools)) pools[pool.name] = { active: pool.active, limit: pool.limit, waiting: pool.waiting };
    return { lanes, global: { active: this.pools.main.active, limit: this.pools.main.limit }, pools };
  }

  /**
   * Starts no new turns, waits for running ones until `deadline`, then aborts
   * what is left without recording outcomes: those messages stay unfinished in
   * the journal and run again after the restart.
   */
  async drain(deadline: number): Promise<void> {
    this.stopped = true;
    for (const lane of this.lanes.values()) if (lane.timer) this.clock.clearTimer(lane.timer);
    // Wall-clock time on purpose: a drain bounds how long a real process waits to exit, whatever clock its turns run on.
    while (this.runningCount() > 0 && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, deadline - Date.now()));
        this.settledWaiters.add(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    for (const lane of this.lanes.values()) {
      if (lane.active) this.abortTurn(lane.active, 'gateway shutting down');
    }
  }

  /** Hears every change of lane depths or activity (callers throttle the `lanes` event); returns the unsubscriber. */
  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  runningCount(): number {
    let count = 0;
    for (const lane of this.lanes.values()) if (lane.active) count += 1;
    return count;
  }

  private lane(key: string): Lane {
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = newLane(key);
      this.lanes.set(key, lane);
    }
    return lane;
  }

  private pump(lane: Lane): void {
    if (this.stopped || lane.active || lane.waitingForSlot || lane.queue.length === 0) return;
    const now = this.clock.now();
    if (lane.queue[0]!.mode === 'collect' && lane.debounceUntil > now) {
      if (lane.timer) this.clock.clearTimer(lane.timer);
      lane.timer = this.clock.setTimer(() => {
        lane.timer = undefined;
        this.pump(lane);
      }, lane.debounceUntil - now);
      return;
    }
    lane.waitingForSlot = true;
    this.pools[lane.pool].request(lane.key, () => this.startTurn(lane));
  }

  private startTurn(lane: Lane): void {
    lane.waitingForSlot = false;
    if (lane.queue.length === 0 || this.stopped) {
      this.pools[lane.pool].release();
      return;
    }
    const messages = takeBatch(lane);
    const first = messages[0]!;
    const turn = new ActiveTurn(first.runId, lane.key, first.agentId, messages, this.clock);
    lane.active = turn;
    const overflow = lane.overflow.splice(0);
    this.options.emit('agent', { runId: turn.runId, sessionKey: lane.key, stream: 'lifecycle', phase: 'start' }, turn.background);
    this.announceMerged(turn, messages.slice(1));
    this.armWatchdog(lane, turn);
    void this.runTurn(lane, turn, overflow);
  }

  private announceMerged(turn: ActiveTurn, merged: readonly QueuedMessage[]): void {
    for (const message of merged) {
      this.options.emit(
        'agent',
        {
          runId: message.runId,
          sessionKey: turn.sessionKey,
          stream: 'lifecycle',
          phase: 'start',
          detail: `merged into run ${turn.runId}`,
        },
        turn.background,
      );
    }
  }

  private async runTurn(lane: Lane, turn: ActiveTurn, overflow: QueuedMessage[]): Promise<void> {
    let outcome: TurnOutcome;
    try {
      const session = await this.options.openSession(turn.sessionKey, turn.agentId);
      turn.session = session;
      if (settleAnswered(turn, session, this.outcomes.onOutcome)) {
        outcome = { status: 'replied', text: '' };
      } else {
        if (overflow.length > 0) session.append(overflowNote(overflow));
        // A restored message that ran before the crash runs again now: the crash-loop guard counts only crashes during a run.
        for (const message of turn.messages)
          if (message.restored && session.hasMessage(message.messageId)) session.append(rerunEntry(message.messageId, turn.runId));
        appendUserMessages(session, turn.messages);
        const principal = leastTrusted(turn.messages.map((message) => message.principal)) ?? 'owner';
        if (session.meta().principal !== principal) session.updateMeta({ principal });
        const context = turn.context(
          session,
          this.options.emit,
          (taken) => {
            appendUserMessages(session, taken);
            this.announceMerged(turn, taken);
            this.changed();
          },
          lendSlot(this.pools[lane.pool], lane.key, turn, () => this.changed()),
        );
        outcome = await this.options.runner.run(context);
      }
    } catch (error) {
      outcome = { status: 'failed', error: error instanceof Error ? error.message : String(error) };
    }
    if (turn.controller.signal.aborted && outcome.status !== 'aborted') {
      outcome = { status: 'aborted', error: String(turn.controller.signal.reason ?? 'aborted') };
    }
    this.finishTurn(lane, turn, outcome);
  }

  private armWatchdog(lane: Lane, turn: ActiveTurn): void {
    const limitMs = this.options.config.watchdogSeconds * 1000;
    const check = (): void => {
      if (turn.finished) return;
      const idle = this.clock.now() - turn.lastProgress;
      if (idle < limitMs) {
        turn.watchdog = this.clock.setTimer(check, limitMs - idle);
        return;
      }
      const reason = `no progress for ${this.options.config.watchdogSeconds}s; the turn was stopped and the lane freed`;
      turn.controller.abort(reason);
      this.finishTurn(lane, turn, { status: 'aborted', error: reason });
    };
    turn.watchdog = this.clock.setTimer(check, limitMs);
  }

  private abortTurn(turn: ActiveTurn, reason: string): void {
    if (!turn.controller.signal.aborted) turn.controller.abort(reason);
  }

  /**
   * Every step here may fail (a full disk refuses the outcome note, a listener
   * throws); none of it may keep the lane or its pool slot, so the release is
   * in `finally` and each step fails on its own.
   */
  private finishTurn(lane: Lane, turn: ActiveTurn, outcome: TurnOutcome): void {
    if (turn.finished) return;
    turn.finished = true;
    try {
      if (turn.watchdog) this.clock.clearTimer(turn.watchdog);
      if (!(this.stopped && outcome.status === 'aborted')) recordOutcome(turn, outcome, this.outcomes);
      this.guard('lifecycle event', () =>
        this.options.emit(
          'agent',
          {
            runId: turn.runId,
            sessionKey: turn.sessionKey,
            stream: 'lifecycle',
            phase: outcome.status === 'failed' ? 'error' : outcome.status === 'aborted' ? 'aborted' : 'end',
            ...(outcome.error !== undefined ? { detail: outcome.error } : {}),
          },
          turn.background,
        ),
      );
    } finally {
      // Steered messages the runner never took run as the next turn, ahead of the queue.
      lane.queue.unshift(...turn.steered.splice(0).map((m) => ({ ...m, mode: 'followup' as const })));
      lane.active = undefined;
      if (turn.holdsSlot) this.pools[lane.pool].release();
      else cancelResume(this.pools[lane.pool], turn);
      if (lane.queue[0]?.mode === 'collect') lane.debounceUntil = lane.lastArrival + this.options.config.debounceMs;
      this.pump(lane);
      if (!lane.active && !lane.waitingForSlot && lane.queue.length === 0 && !lane.timer) this.lanes.delete(lane.key);
      for (const waiter of this.settledWaiters) waiter();
      this.settledWaiters.clear();
      this.changed();
    }
  }

  private guard(what: string, step: () => unknown): void {
    try {
      step();
    } catch (error) {
      this.options.warn?.(`${what} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private changed(): void {
    for (const listener of this.changeListeners) listener();
  }
}
