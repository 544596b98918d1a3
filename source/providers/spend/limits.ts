import type { BudgetsConfig } from '../../config/index.js';
import { sessionScopeId, type SpendCharge } from './charge.js';

export type Unit = 'tokens' | 'usd';

/** One cap that applies to a call: which total it bounds and where it is set. */
export interface Limit {
  /** The config key that sets it (`budgets.agentDaily.usd`): what `claw budget set` takes. */
  key: string;
  /** What it bounds, for messages (`agent main today`). */
  label: string;
  /** The total it bounds (see scopesOf). */
  scope: string;
  unit: Unit;
  cap: number;
  /** Going past it asks the owner (an interactive turn's ceiling) instead of stopping. */
  ask: boolean;
}

/** Every total a call counts towards, for its day and month. */
export function scopesOf(charge: SpendCharge, day: string): string[] {
  const month = day.slice(0, 7);
  const agents = [charge.agentId, ...(charge.parents?.agents ?? [])].filter((agent, index, all) => all.indexOf(agent) === index);
  const scopes = [`g:${day}`];
  for (const agent of agents) scopes.push(`a:${day}:${agent}`, `m:${month}:${agent}`);
  if (charge.kind !== 'interactive') scopes.push(`b:${day}`, `k:${day}:${charge.kind}`);
  scopes.push(`s:${sessionScopeId(charge.sessionKey, charge.sessionId)}`);
  for (const parent of charge.parents?.sessions ?? []) scopes.push(`s:${parent}`);
  if (charge.runId) scopes.push(`t:${charge.runId}`);
  return scopes;
}

function push(limits: Limit[], key: string, label: string, scope: string, unit: Unit, cap: number | null | undefined, ask = false): void {
  if (cap !== null && cap !== undefined) limits.push({ key, label, scope, unit, cap, ask });
}

/** The caps that apply to a call, tightest scope first (the turn, then the session, …, then the whole day). */
export function limitsOf(budgets: BudgetsConfig, charge: SpendCharge, day: string): Limit[] {
  const limits: Limit[] = [];
  const month = day.slice(0, 7);
  if (charge.runId) {
    const allowance = charge.kind === 'interactive' ? Math.max(1, charge.turnAllowance ?? 1) : 1;
    const ask = charge.kind === 'interactive';
    const scope = `t:${charge.runId}`;
    push(limits, 'budgets.turn.maxTokens', 'this turn', scope, 'tokens', budgets.turn.maxTokens && budgets.turn.maxTokens * allowance, ask);
    push(limits, 'budgets.turn.maxUsd', 'this turn', scope, 'usd', budgets.turn.maxUsd && budgets.turn.maxUsd * allowance, ask);
  }
  const sessions = [sessionScopeId(charge.sessionKey, charge.sessionId), ...(charge.parents?.sessions ?? [])];
  for (const [index, session] of sessions.entries()) {
    const label = index === 0 ? `session ${charge.sessionKey}` : `parent session ${session.split('#')[0]}`;
    push(limits, 'budgets.session.maxTokens', label, `s:${session}`, 'tokens', budgets.session.maxTokens);
    push(limits, 'budgets.session.maxUsd', label, `s:${session}`, 'usd', budgets.session.maxUsd);
  }
  if (charge.kind !== 'interactive') {
    const kind = budgets.background[charge.kind];
    push(limits, `budgets.background.${charge.kind}.dailyTokens`, `${charge.kind} today`, `k:${day}:${charge.kind}`, 'tokens', kind?.dailyTokens);
    push(limits, `budgets.background.${charge.kind}.dailyUsd`, `${charge.kind} today`, `k:${day}:${charge.kind}`, 'usd', kind?.dailyUsd);
    push(limits, 'budgets.background.dailyTokens', 'background work today', `b:${day}`, 'tokens', budgets.background.dailyTokens);
    push(limits, 'budgets.background.dailyUsd', 'background work today', `b:${day}`, 'usd', budgets.background.dailyUsd);
  }
  const agents = [charge.agentId, ...(charge.parents?.agents ?? [])].filter((agent, index, all) => all.indexOf(agent) === index);
  for (const agent of agents) {
    push(limits, 'budgets.agentDaily.tokens', `agent ${agent} today`, `a:${day}:${agent}`, 'tokens', budgets.agentDaily.tokens);
    push(limits, 'budgets.agentDaily.usd', `agent ${agent} today`, `a:${day}:${agent}`, 'usd', budgets.agentDaily.usd);
    push(limits, 'budgets.agentMonthly.tokens', `agent ${agent} this month`, `m:${month}:${agent}`, 'tokens', budgets.agentMonthly.tokens);
    push(limits, 'budgets.agentMonthly.usd', `agent ${agent} this month`, `m:${month}:${agent}`, 'usd', budgets.agentMonthly.usd);
  }
  push(limits, 'budgets.globalDaily.tokens', 'everything today', `g:${day}`, 'tokens', budgets.globalDaily.tokens);
  push(limits, 'budgets.globalDaily.usd', 'everything today', `g:${day}`, 'usd', budgets.globalDaily.usd);
  return limits;
}

export function formatAmount(unit: Unit, value: number): string {
  // Cents for most figures; small ones keep the digits that tell them apart (a heartbeat costs $0.0004).
  if (unit === 'usd') return `$${value.toFixed(value === 0 || value >= 0.1 ? 2 : value >= 0.01 ? 3 : 4)}`;
  if (value >= 1_000_000) return `${(value / 1_000_000).toFixed(value >= 10_000_000 ? 0 : 1)}M tokens`;
  if (value >= 10_000) return `${Math.round(value / 1000)}k tokens`;
  return `${Math.round(value)} tokens`;
}

/** The value to suggest for `claw budget set` when a cap stops work: double it, in round figures. */
export function raisedCap(limit: Limit): string {
  const doubled = limit.cap * 2;
  if (limit.unit === 'usd') return doubled >= 1 ? String(Math.ceil(doubled)) : doubled.toFixed(2);
  return String(Math.ceil(doubled / 1000) * 1000);
}
