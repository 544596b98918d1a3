import { writeFileAtomic, type Clock } from '../config/index.js';
import type { HeartbeatAgentStatus, HeartbeatEventPayload } from '../protocol/index.js';
import type { TurnStatus } from './cron-service.js';
import { parseDuration } from './durations.js';
import { skipReason } from './heartbeat-checks.js';
import { finishRun, type RunEnd } from './heartbeat-delivery.js';
import { readHeartbeatFile } from './heartbeat-file.js';
import {
  loadPersisted,
  persistedText,
  rollDay,
  type ActiveRun,
  type AgentState,
  type HeartbeatAgent,
  type HeartbeatTrigger,
  type SystemEvent,
} from './heartbeat-state.js';

export type { HeartbeatAgent, HeartbeatTrigger, SystemEvent } from './heartbeat-state.js';

/** Wakes within this window are one run. */
export const COALESCE_MS = 250;
/** A heartbeat whose turn failed (not a quiet one) is tried once more after this. */
export const RETRY_AFTER_MS = 60_000;
/** System events kept for the next heartbeat; older ones beyond this are dropped (and logged). */
export const MAX_PENDING_EVENTS = 20;

export interface HeartbeatDeps {
  clock: Clock;
  /** Where pause state and the day's spend survive a restart. */
  statePath: string;
  /** Every agent with its resolved heartbeat config, read from the live config each time. */
  agents(): HeartbeatAgent[];
  workspaceDir(agentId: string): string;
  laneBusy(sessionKey: string): boolean;
  /** Why a model ref cannot be used (unknown, no credentials), or undefined when it can. */
  modelProblem(ref: string): string | undefined;
  /** Which spend cap a heartbeat of this agent would hit at once, or undefined. */
  budgetProblem?(agent: HeartbeatAgent): string | undefined;
  dispatch(agent: HeartbeatAgent, messageId: string, text: string): Promise<{ runId: string }>;
  deliverAlert(agent: HeartbeatAgent, text: string, runId: string): Promise<{ delivered: boolean; messageId?: string; error?: string }>;
  tokensOf(sessionKey: string): number;
  /** The run ended quietly: its turn leaves the session's context and chat view. */
  markQuiet(agent: HeartbeatAgent, messageId: string): Promise<void>;
  emit(payload: HeartbeatEventPayload): void;
  notice(text: string): void;
  warn(message: string): void;
}

/**
 * The heartbeat of every agent: an interval timer, free pre-checks (file,
 * active hours, busy lane, budget, pause) before any model call, coalesced
 * wakes, and quiet replies that never leave the gateway.
 */
export class HeartbeatRunner {
  readonly #states = new Map<string, AgentState>();
  readonly #pending = new Set<Promise<unknown>>();
  #saving: Promise<void> = Promise.resolve();
  #stopped = false;
  readonly #end: RunEnd;

  constructor(private readonly deps: HeartbeatDeps) {
    this.#end = { deps, retryLater: (state) => this.#retryLater(state), save: () => void this.#save() };
  }

  start(): void {
    const saved = loadPersisted(this.deps.statePath, (message) => this.deps.warn(message));
    for (const agent of this.deps.agents()) {
      const state = this.#state(agent.agentId);
      Object.assign(state, saved[agent.agentId] ?? {});
    }
    this.reconfigure();
  }

  /** No new run starts (a drain began); the one running may finish. */
  halt(): void {
    this.#stopped = true;
    for (const state of this.#states.values()) {
      if (state.timer) this.deps.clock.clearTimer(state.timer);
      if (state.wake) this.deps.clock.clearTimer(state.wake.timer);
      if (state.retry) this.deps.clock.clearTimer(state.retry);
      delete state.timer;
      delete state.wake;
      delete state.retry;
    }
  }

  async stop(): Promise<void> {
    this.halt();
    await this.settled();
  }

  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
    await this.#saving;
  }

  /** Re-arms every agent's interval from the live config (after start or a config change). */
  reconfigure(): void {
    for (const agent of this.deps.agents()) this.#armInterval(agent, this.#state(agent.agentId));
  }

  /** Asks for a run; wakes within COALESCE_MS become one run. */
  wake(agentId: string, trigger: HeartbeatTrigger): void {
    if (this.#stopped) return;
    const state = this.#state(agentId);
    if (state.wake) {
      state.wake.triggers.add(trigger);
      return;
    }
    const triggers = new Set<HeartbeatTrigger>([trigger]);
    state.wake = {
      triggers,
      timer: this.deps.clock.setTimer(() => {
        delete state.wake;
        this.#run(agentId, triggers.has('manual') ? 'manual' : [...triggers][0]!);
      }, COALESCE_MS),
    };
  }

  pause(agentId: string, paused: boolean): HeartbeatAgentStatus {
    const state = this.#state(agentId);
    state.paused = paused;
    void this.#save();
    return this.status().find((s) => s.agentId === agentId)!;
  }

  /**
   * Keeps a system event for the agent's next heartbeat (on disk before this
   * resolves); `wakeNow` runs that heartbeat at once instead of at its interval.
   */
  async queueEvent(agentId: string, event: SystemEvent, wakeNow: boolean): Promise<{ nextRunAt?: number; pending: number }> {
    const state = this.#state(agentId);
    const events = (state.events ?? []).filter((known) => known.id !== event.id);
    events.push(event);
    const dropped = events.splice(0, Math.max(0, events.length - MAX_PENDING_EVENTS));
    if (dropped.length > 0) this.deps.warn(`heartbeat of "${agentId}": ${dropped.length} older system event(s) dropped (at most ${MAX_PENDING_EVENTS} wait)`);
    state.events = events;
    await this.#save();
    if (wakeNow) this.wake(agentId, 'hook');
    return { pending: events.length, ...(state.nextRunAt !== undefined ? { nextRunAt: state.nextRunAt } : {}) };
  }

  /** The `heartbeat_respond` tool: false when no heartbeat runs in this session. */
  respond(sessionKey: string, notify: boolean, text: string | undefined): boolean {
    const agent = this.deps.agents().find((a) => a.sessionKey === sessionKey);
    const active = agent ? this.#states.get(agent.agentId)?.active : undefined;
    if (!active) return false;
    active.respond = { notify, ...(text !== undefined ? { text } : {}) };
    return true;
  }

  /** A session's turn ended: a heartbeat deferred for its lane runs now. */
  turnEnded(sessionKey: string): void {
    for (const agent of this.deps.agents()) {
      const state = this.#states.get(agent.agentId);
      if (agent.sessionKey !== sessionKey || !state?.deferred) continue;
      const trigger = state.deferred;
      delete state.deferred;
      this.wake(agent.agentId, trigger);
    }
  }

  /** The lane's outcome for a message on the `heartbeat` channel; false when it is not ours. */
  outcome(messageId: string, status: TurnStatus, text: string): boolean {
    for (const agent of this.deps.agents()) {
      const state = this.#states.get(agent.agentId);
      if (state?.active?.messageId !== messageId) continue;
      this.#track(finishRun(this.#end, agent, state, state.active, status, text));
      return true;
    }
    if (!messageId.startsWith('heartbeat:')) return false;
    this.#replayed(messageId, status, text);
    return true;
  }

  /**
   * A run the journal replayed after a crash: the process that started it is
   * gone with its record of the run, so it is finished from its message id
   * (`heartbeat:<agent>:<at>`) as any run is, its alert delivered or its
   * quiet reply marked — without disturbing a run started since.
   */
  #replayed(messageId: string, status: TurnStatus, text: string): void {
    const agentId = messageId.slice('heartbeat:'.length, messageId.lastIndexOf(':'));
    const agent = this.deps.agents().find((a) => a.agentId === agentId);
    if (!agent) return;
    const state = this.#state(agentId);
    const current = state.active;
    const replay: ActiveRun = { messageId, trigger: 'interval', tokensBefore: this.deps.tokensOf(agent.sessionKey), events: [] };
    const done = finishRun(this.#end, agent, state, replay, status, text);
    // finishRun clears the state's run before it awaits anything: a run started since this one is put back at once.
    if (current && current.messageId !== messageId) state.active = current;
    this.#track(done);
  }

  status(): HeartbeatAgentStatus[] {
    return this.deps.agents().map((agent) => {
      const state = this.#state(agent.agentId);
      const everyMs = parseDuration(agent.config.every) ?? 0;
      return {
        agentId: agent.agentId,
        enabled: everyMs > 0,
        paused: state.paused,
        everyMs,
        sessionKey: agent.sessionKey,
        tokensToday: rollDay(agent, state, this.deps.clock.now()).tokensToday,
        running: state.active !== undefined,
        ...(state.nextRunAt !== undefined ? { nextRunAt: state.nextRunAt } : {}),
        ...(state.lastRunAt !== undefined ? { lastRunAt: state.lastRunAt } : {}),
        ...(state.lastOutcome ? { lastOutcome: state.lastOutcome } : {}),
        ...(state.lastReason ? { lastReason: state.lastReason } : {}),
        ...(agent.config.dailyTokenBudget !== undefined ? { dailyTokenBudget: agent.config.dailyTokenBudget } : {}),
        ...(state.budgetExhaustedAt !== undefined ? { budgetExhaustedAt: state.budgetExhaustedAt } : {}),
      };
    });
  }

  #state(agentId: string): AgentState {
    let state = this.#states.get(agentId);
    if (!state) this.#states.set(agentId, (state = { agentId, paused: false, day: '', tokensToday: 0 }));
    return state;
  }

  #armInterval(agent: HeartbeatAgent, state: AgentState): void {
    if (state.timer) this.deps.clock.clearTimer(state.timer);
    delete state.timer;
    delete state.nextRunAt;
    const everyMs = parseDuration(agent.config.every);
    if (this.#stopped || !everyMs) return;
    const now = this.deps.clock.now();
    const nextRunAt = Math.max(now, (state.lastRunAt ?? now) + everyMs);
    state.nextRunAt = nextRunAt;
    state.timer = this.deps.clock.setTimer(() => {
      delete state.timer;
      state.lastRunAt = this.deps.clock.now();
      this.wake(agent.agentId, 'interval');
      const current = this.deps.agents().find((a) => a.agentId === agent.agentId);
      if (current) this.#armInterval(current, state);
    }, nextRunAt - now);
  }

  #run(agentId: string, trigger: HeartbeatTrigger): void {
    const agent = this.deps.agents().find((a) => a.agentId === agentId);
    if (!agent || this.#stopped) return;
    const state = this.#state(agentId);
    const now = this.deps.clock.now();
    const base = { agentId, sessionKey: agent.sessionKey, trigger, at: now };
    const overBudget = this.deps.budgetProblem?.(agent);
    const skip = skipReason(agent, state, now, (ref) => this.deps.modelProblem(ref)) ?? (overBudget ? `budget: ${overBudget}` : undefined);
    const file = skip ? undefined : readHeartbeatFile(this.deps.workspaceDir(agentId));
    const events = state.events ?? [];
    // Waiting system events are worth a run even with nothing due in HEARTBEAT.md.
    const reason = skip ?? (file && !file.ok && events.length === 0 ? file.reason : undefined);
    if (reason) {
      state.lastOutcome = 'skipped';
      state.lastReason = reason;
      this.deps.emit({ ...base, phase: 'skipped', outcome: 'skipped', reason });
      return;
    }
    if (this.deps.laneBusy(agent.sessionKey)) {
      state.deferred = trigger;
      state.lastOutcome = 'deferred';
      state.lastReason = `${agent.sessionKey} is busy; the heartbeat runs when its turn ends`;
      this.deps.emit({ ...base, phase: 'skipped', outcome: 'deferred', reason: state.lastReason });
      return;
    }
    const messageId = `heartbeat:${agentId}:${now}`;
    const active: ActiveRun = { messageId, trigger, tokensBefore: this.deps.tokensOf(agent.sessionKey), events: events.map((e) => e.id) };
    state.active = active;
    state.lastRunAt = now;
    const told = events.length === 0 ? '' : `System events since the last heartbeat:\n${events.map((e) => `- ${e.text} (${e.source})`).join('\n')}`;
    const text = [agent.config.prompt, told, file?.ok ? file.text : ''].filter((part) => part !== '').join('\n\n');
    this.#track(
      this.deps.dispatch(agent, messageId, text).then(
        ({ runId }) => {
          active.runId = runId;
          // The turn is in the journal now: these events are its to answer.
          if (active.events.length > 0) {
            state.events = (state.events ?? []).filter((e) => !active.events.includes(e.id));
            void this.#save();
          }
          this.deps.emit({ ...base, phase: 'started', runId });
        },
        (error: unknown) => {
          delete state.active;
          state.lastOutcome = 'failed';
          state.lastReason = `could not start: ${error instanceof Error ? error.message : String(error)}`;
          this.deps.emit({ ...base, phase: 'finished', outcome: 'failed', reason: state.lastReason });
        },
      ),
    );
    void this.#save();
  }

  #retryLater(state: AgentState): void {
    if (this.#stopped || state.retry) return;
    state.retry = this.deps.clock.setTimer(() => {
      delete state.retry;
      this.wake(state.agentId, 'retry');
    }, RETRY_AFTER_MS);
  }

  /** Resolves once written; callers that do not wait still get a warning on failure. */
  #save(): Promise<void> {
    const text = persistedText(this.#states.values());
    const write = this.#saving.then(() => writeFileAtomic(this.deps.statePath, text));
    this.#saving = write.catch((error: unknown) => this.deps.warn(`heartbeat state not written: ${String(error)}`));
    return write;
  }

  #track(promise: Promise<unknown>): void {
    this.#pending.add(promise);
    void promise.finally(() => this.#pending.delete(promise));
  }
}
