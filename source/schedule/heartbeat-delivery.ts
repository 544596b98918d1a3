import type { Clock } from '../config/index.js';
import type { HeartbeatEventPayload } from '../protocol/index.js';
import type { TurnStatus } from './cron-service.js';
import { rollDay, type ActiveRun, type AgentState, type HeartbeatAgent } from './heartbeat-state.js';
import { isQuietReply } from './quiet-reply.js';

/** What ending a run needs of the daemon (a part of HeartbeatDeps). */
export interface RunEndDeps {
  clock: Clock;
  tokensOf(sessionKey: string): number;
  markQuiet(agent: HeartbeatAgent, messageId: string): Promise<void>;
  deliverAlert(agent: HeartbeatAgent, text: string, runId: string): Promise<{ delivered: boolean; messageId?: string; error?: string }>;
  emit(payload: HeartbeatEventPayload): void;
  notice(text: string): void;
  warn(message: string): void;
}

/** What ending a run asks of the runner: a later retry of a failed run, and saving the state. */
export interface RunEnd {
  deps: RunEndDeps;
  retryLater(state: AgentState): void;
  save(): void;
}

/**
 * A heartbeat turn ended: counts its tokens, then a failure is retried once
 * later, a quiet reply (HEARTBEAT_OK, suppressed, or heartbeat_respond
 * without notify) stays in the gateway, and anything else is delivered as an
 * alert. Spending the day's budget stops the heartbeat until tomorrow.
 */
export async function finishRun(end: RunEnd, agent: HeartbeatAgent, state: AgentState, active: ActiveRun, status: TurnStatus, text: string): Promise<void> {
  const { deps } = end;
  delete state.active;
  const now = deps.clock.now();
  const tokens = Math.max(0, deps.tokensOf(agent.sessionKey) - active.tokensBefore);
  rollDay(agent, state, now).tokensToday += tokens;
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
    deps.emit({ ...base, phase: 'finished', outcome: 'failed', reason: state.lastReason });
    if (active.trigger !== 'retry') end.retryLater(state);
  } else {
    const said = active.respond;
    const alertText = said ? (said.notify ? (said.text ?? text).trim() : '') : status === 'suppressed' || isQuietReply(text) ? '' : text.trim();
    if (!alertText) {
      state.lastOutcome = 'quiet';
      delete state.lastReason;
      await deps.markQuiet(agent, active.messageId).catch((error: unknown) => deps.warn(`quiet heartbeat not marked: ${String(error)}`));
      deps.emit({ ...base, phase: 'finished', outcome: 'quiet' });
    } else {
      const delivery = await deps.deliverAlert(agent, alertText, active.runId ?? active.messageId);
      state.lastOutcome = delivery.delivered ? 'alerted' : 'alert not delivered';
      state.lastReason = delivery.delivered ? undefined : delivery.error;
      if (!state.lastReason) delete state.lastReason;
      deps.emit({ ...base, phase: 'alert', outcome: state.lastOutcome, text: alertText, ...(delivery.error ? { reason: delivery.error } : {}) });
      deps.emit({ ...base, phase: 'finished', outcome: state.lastOutcome });
    }
  }
  checkBudget(deps, agent, state);
  end.save();
}

function checkBudget(deps: RunEndDeps, agent: HeartbeatAgent, state: AgentState): void {
  const budget = agent.config.dailyTokenBudget;
  if (budget === undefined || state.tokensToday < budget || state.budgetExhaustedAt !== undefined) return;
  state.budgetExhaustedAt = deps.clock.now();
  const text = `Heartbeat of agent "${agent.agentId}" stopped for today: it spent ${state.tokensToday} of its ${budget} token budget (agents.defaults.heartbeat.dailyTokenBudget). It resumes tomorrow; raise the budget to resume sooner.`;
  deps.notice(text);
  deps.emit({ agentId: agent.agentId, sessionKey: agent.sessionKey, trigger: 'interval', at: state.budgetExhaustedAt, phase: 'budget', reason: text });
}
