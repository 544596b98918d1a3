import { existsSync, readFileSync } from 'node:fs';
import type { HeartbeatConfig, TimerHandle } from '../config/index.js';
import { dayKey } from './active-hours.js';

/** Something that happened outside (a webhook's wake) that the next heartbeat tells the agent about. */
export interface SystemEvent {
  id: string;
  text: string;
  source: string;
  at: number;
}

export type HeartbeatTrigger = 'interval' | 'manual' | 'cron' | 'hook' | 'retry';

export interface HeartbeatAgent {
  agentId: string;
  sessionKey: string;
  config: HeartbeatConfig;
}

export interface Persisted {
  paused: boolean;
  day: string;
  tokensToday: number;
  budgetExhaustedAt?: number;
  lastRunAt?: number;
  /** Waiting for the next heartbeat, on disk so a restart keeps them. */
  events?: SystemEvent[];
}

export interface ActiveRun {
  messageId: string;
  runId?: string;
  trigger: HeartbeatTrigger;
  tokensBefore: number;
  /** The system events this run told the agent about. */
  events: string[];
  /** What heartbeat_respond said, when the agent called it. */
  respond?: { notify: boolean; text?: string };
}

export interface AgentState extends Persisted {
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

/** Starts the day's spend afresh once the agent's local day changed. */
export function rollDay(agent: HeartbeatAgent, state: AgentState, now: number): AgentState {
  const today = dayKey(now, agent.config.activeHours?.timezone);
  if (state.day !== today) {
    state.day = today;
    state.tokensToday = 0;
    delete state.budgetExhaustedAt;
  }
  return state;
}

/** The pause state, spend and waiting events a restart keeps; an unreadable file starts fresh (with a warning). */
export function loadPersisted(path: string, warn: (message: string) => void): Record<string, Persisted> {
  if (!existsSync(path)) return {};
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Record<string, Persisted>;
  } catch (error) {
    warn(`${path} is unreadable (${String(error)}); heartbeat pause state and today's spend start fresh`);
    return {};
  }
}

/** The file text of what a restart keeps of every agent's state. */
export function persistedText(states: Iterable<AgentState>): string {
  const data: Record<string, Persisted> = {};
  for (const state of states) {
    data[state.agentId] = {
      paused: state.paused,
      day: state.day,
      tokensToday: state.tokensToday,
      ...(state.budgetExhaustedAt !== undefined ? { budgetExhaustedAt: state.budgetExhaustedAt } : {}),
      ...(state.lastRunAt !== undefined ? { lastRunAt: state.lastRunAt } : {}),
      ...(state.events && state.events.length > 0 ? { events: state.events } : {}),
    };
  }
  return `${JSON.stringify(data, null, 2)}\n`;
}
