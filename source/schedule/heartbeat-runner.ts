import { existsSync, readFileSync } from 'node:fs';
import { writeFileAtomic, type Clock, type HeartbeatConfig, type TimerHandle } from '../config/index.js';
import type { HeartbeatAgentStatus, HeartbeatEventPayload } from '../protocol/index.js';
import { dayKey, withinActiveHours } from './active-hours.js';
import type { TurnStatus } from './cron-service.js';
import { parseDuration } from './durations.js';
import { readHeartbeatFile } from './heartbeat-file.js';
import { isQuietReply } from './quiet-reply.js';

/** Wakes within this window are one run. */
export const COALESCE_MS = 250;
/** A heartbeat whose turn failed (not a quiet one) is tried once more after this. */
export const RETRY_AFTER_MS = 60_000;
/** System events kept for the next heartbeat; older ones beyond this are dropped (and logged). */
export const MAX_PENDING_EVENTS = 20;

/** Something that happened outside (a webhook's wake) that the next heartbeat tells the agent about. */
export interface SystemEvent {
  id: string;
  text: string;
  source: string;
  at: number;
}

export type HeartbeatTrigger = 'interval' | 'manual' | 'cron' | 'hook' | 'retry';
export type HeartbeatTarget = HeartbeatConfig['target'];

export interface HeartbeatAgent {
  agentId: string;
  sessionKey: string;
  config: HeartbeatConfig;
}

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
  dispatch(agent: HeartbeatAgent, messageId: string, text: string): Promise<{ runId: string }>;
  deliverAlert(agent: HeartbeatAgent, text: string, runId: string): Promise<{ delivered: boolean; messageId?: string; error?: string }>;
  tokensOf(sessionKey: string): number;
  /** The run ended quietly: its turn leaves the session's context and chat view. */
  markQuiet(agent: HeartbeatAgent, messageId: string): Promise<void>;
  emit(payload: HeartbeatEventPayload): void;
  notice(text: string): void;
  warn(message: string): void;
}

interface Persisted {
  paused: boolean;
  day: string;
  tokensToday: number;
  budgetExhaustedAt?: number;
  lastRunAt?: number;
  /** Waiting for the next heartbeat, on disk so a restart keeps them. */
  events?: SystemEvent[];
}

interface ActiveRun {
  messageId: string;
  runId?: string;
  trigger: HeartbeatTrigger;
  tokensBefore: number;
  /** The system events this run told the agent about. */
  events: string[];
  /** What heartbeat_respond said, when the agent called it. */
  respond?: { notify: boolean; text?: string };
}

interface AgentState extends Persisted {
  agentId: string;
  timer?: TimerHandle;
  nextRunAt?: number;
  wake?: { timer: TimerHandle; triggers: Set<HeartbeatTrigger> };
  retry?: TimerHandle;
  /** A wake found the lane busy: run once its turn ends. */
  deferred?: HeartbeatTrigger;
  active?: ActiveRun;
  lastOutcome?: string;
  lastReason?: string;
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

  constructor(private readonly deps: HeartbeatDeps) {}

  start(): void {
    const saved = this.#load();
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
      this.#track(this.#finish(agent, state, state.active, status, text));
      return true;
    }
    return messageId.startsWith('heartbeat:');
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
        tokensToday: this.#rollDay(agent, state).tokensToday,
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

  #rollDay(agent: HeartbeatAgent, state: AgentState): AgentState {
    const today = dayKey(this.deps.clock.now(), agent.config.activeHours?.timezone);
    if (state.day !== today) {
      state.day = today;
      state.tokensToday = 0;
      delete state.budgetExhaustedAt;
    }
    return state;
  }

  /** Why this wake makes no model call, or undefined when it should run. */
  #skipReason(agent: HeartbeatAgent, state: AgentState): string | undefined {
    const { config } = agent;
    if (!parseDuration(config.every)) return 'the heartbeat is off (every: 0)';
    if (state.paused) return 'paused (claw heartbeat resume)';
    this.#rollDay(agent, state);
    if (config.dailyTokenBudget !== undefined && state.tokensToday >= config.dailyTokenBudget)
      return `the daily token budget is spent (${state.tokensToday} of ${config.dailyTokenBudget})`;
    if (config.activeHours && !withinActiveHours(this.deps.clock.now(), config.activeHours)) {
      return `outside active hours ${config.activeHours.start}–${config.activeHours.end} ${config.activeHours.timezone ?? 'UTC'}`;
    }
    if (state.active) return 'a heartbeat is already running';
    const problem = config.model === undefined ? undefined : this.deps.modelProblem(config.model);
    if (problem) return `heartbeat.model "${config.model}" cannot be used: ${problem}`;
    return undefined;
  }

  #run(agentId: string, trigger: HeartbeatTrigger): void {
    const agent = this.deps.agents().find((a) => a.agentId === agentId);
    if (!agent || this.#stopped) return;
    const state = this.#state(agentId);
    const now = this.deps.clock.now();
    const base = { agentId, sessionKey: agent.sessionKey, trigger, at: now };
    const skip = this.#skipReason(agent, state);
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

  async #finish(agent: HeartbeatAgent, state: AgentState, active: ActiveRun, status: TurnStatus, text: string): Promise<void> {
    delete state.active;
    const now = this.deps.clock.now();
    const tokens = Math.max(0, this.deps.tokensOf(agent.sessionKey) - active.tokensBefore);
    this.#rollDay(agent, state).tokensToday += tokens;
    const base = {
      agentId: agent.agentId,
      sessionKey: agent.sessionKey,
      trigger: active.trigger,
      at: now,
      tokens,
      ...(active.runId ? { runId: active.runId } : {}),
    };
    if (status === 'failed' || status === 'aborted' || status === 'dropped') {
      state.lastOutcome = 'failed';
      state.lastReason = text || `the turn ended ${status}`;
      this.deps.emit({ ...base, phase: 'finished', outcome: 'failed', reason: state.lastReason });
      if (active.trigger !== 'retry') this.#retryLater(state);
    } else {
      const said = active.respond;
      const alertText = said ? (said.notify ? (said.text ?? text).trim() : '') : status === 'suppressed' || isQuietReply(text) ? '' : text.trim();
      if (!alertText) {
        state.lastOutcome = 'quiet';
        delete state.lastReason;
        await this.deps.markQuiet(agent, active.messageId).catch((error: unknown) => this.deps.warn(`quiet heartbeat not marked: ${String(error)}`));
        this.deps.emit({ ...base, phase: 'finished', outcome: 'quiet' });
      } else {
        const delivery = await this.deps.deliverAlert(agent, alertText, active.runId ?? active.messageId);
        state.lastOutcome = delivery.delivered ? 'alerted' : 'alert not delivered';
        state.lastReason = delivery.delivered ? undefined : delivery.error;
        if (!state.lastReason) delete state.lastReason;
        this.deps.emit({ ...base, phase: 'alert', outcome: state.lastOutcome, text: alertText, ...(delivery.error ? { reason: delivery.error } : {}) });
        this.deps.emit({ ...base, phase: 'finished', outcome: state.lastOutcome });
      }
    }
    this.#checkBudget(agent, state);
    void this.#save();
  }

  #checkBudget(agent: HeartbeatAgent, state: AgentState): void {
    const budget = agent.config.dailyTokenBudget;
    if (budget === undefined || state.tokensToday < budget || state.budgetExhaustedAt !== undefined) return;
    state.budgetExhaustedAt = this.deps.clock.now();
    const text = `Heartbeat of agent "${agent.agentId}" stopped for today: it spent ${state.tokensToday} of its ${budget} token budget (agents.defaults.heartbeat.dailyTokenBudget). It resumes tomorrow; raise the budget to resume sooner.`;
    this.deps.notice(text);
    this.deps.emit({ agentId: agent.agentId, sessionKey: agent.sessionKey, trigger: 'interval', at: state.budgetExhaustedAt, phase: 'budget', reason: text });
  }

  #retryLater(state: AgentState): void {
    if (this.#stopped || state.retry) return;
    state.retry = this.deps.clock.setTimer(() => {
      delete state.retry;
      this.wake(state.agentId, 'retry');
    }, RETRY_AFTER_MS);
  }

  #load(): Record<string, Persisted> {
    if (!existsSync(this.deps.statePath)) return {};
    try {
      return JSON.parse(readFileSync(this.deps.statePath, 'utf8')) as Record<string, Persisted>;
    } catch (error) {
      this.deps.warn(`${this.deps.statePath} is unreadable (${String(error)}); heartbeat pause state and today's spend start fresh`);
      return {};
    }
  }

  /** Resolves once written; callers that do not wait still get a warning on failure. */
  #save(): Promise<void> {
    const data: Record<string, Persisted> = {};
    for (const state of this.#states.values()) {
      data[state.agentId] = {
        paused: state.paused,
        day: state.day,
        tokensToday: state.tokensToday,
        ...(state.budgetExhaustedAt !== undefined ? { budgetExhaustedAt: state.budgetExhaustedAt } : {}),
        ...(state.lastRunAt !== undefined ? { lastRunAt: state.lastRunAt } : {}),
        ...(state.events && state.events.length > 0 ? { events: state.events } : {}),
      };
    }
    const text = `${JSON.stringify(data, null, 2)}\n`;
    const write = this.#saving.then(() => writeFileAtomic(this.deps.statePath, text));
    this.#saving = write.catch((error: unknown) => this.deps.warn(`heartbeat state not written: ${String(error)}`));
    return write;
  }

  #track(promise: Promise<unknown>): void {
    this.#pending.add(promise);
    void promise.finally(() => this.#pending.delete(promise));
  }
}
