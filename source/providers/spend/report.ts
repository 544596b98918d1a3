import { backgroundKinds, type BudgetsConfig } from '../../config/index.js';
import type { BudgetUse, SpendStatus, SpendSummary } from '../../protocol/index.js';
import type { SpendLedger, UsageRow } from './ledger.js';

/** What a report reads of the ledger (an empty one when no call was ever made). */
export type LedgerView = Pick<SpendLedger, 'total' | 'usage'>;

/** The ledger before the first model call: nothing spent. */
export const EMPTY_LEDGER: LedgerView = { total: () => ({ tokens: 0, usd: 0 }), usage: () => [] };
import type { Unit } from './limits.js';

interface Totals {
  usd: number;
  tokens: number;
  calls: number;
}

function add(into: Totals, row: UsageRow): void {
  into.usd += row.usd;
  into.tokens += row.tokens;
  into.calls += row.calls;
}

const zero = (): Totals => ({ usd: 0, tokens: 0, calls: 0 });

/** The day and month caps in force, with what each has used (reservations in flight included). */
function budgetUses(budgets: BudgetsConfig, ledger: LedgerView, day: string, agents: readonly string[]): BudgetUse[] {
  const uses: BudgetUse[] = [];
  const month = day.slice(0, 7);
  const use = (key: string, label: string, scope: string, unit: Unit, cap: number | null | undefined): void => {
    if (cap === null || cap === undefined) return;
    uses.push({ key, label, unit, cap, used: ledger.total(scope)[unit] });
  };
  use('budgets.globalDaily.usd', 'everything today', `g:${day}`, 'usd', budgets.globalDaily.usd);
  use('budgets.globalDaily.tokens', 'everything today', `g:${day}`, 'tokens', budgets.globalDaily.tokens);
  use('budgets.background.dailyUsd', 'background today', `b:${day}`, 'usd', budgets.background.dailyUsd);
  use('budgets.background.dailyTokens', 'background today', `b:${day}`, 'tokens', budgets.background.dailyTokens);
  for (const kind of backgroundKinds) {
    use(`budgets.background.${kind}.dailyUsd`, `${kind} today`, `k:${day}:${kind}`, 'usd', budgets.background[kind]?.dailyUsd);
    use(`budgets.background.${kind}.dailyTokens`, `${kind} today`, `k:${day}:${kind}`, 'tokens', budgets.background[kind]?.dailyTokens);
  }
  for (const agent of agents) {
    use('budgets.agentDaily.usd', `agent ${agent} today`, `a:${day}:${agent}`, 'usd', budgets.agentDaily.usd);
    use('budgets.agentDaily.tokens', `agent ${agent} today`, `a:${day}:${agent}`, 'tokens', budgets.agentDaily.tokens);
    use('budgets.agentMonthly.usd', `agent ${agent} this month`, `m:${month}:${agent}`, 'usd', budgets.agentMonthly.usd);
    use('budgets.agentMonthly.tokens', `agent ${agent} this month`, `m:${month}:${agent}`, 'tokens', budgets.agentMonthly.tokens);
  }
  return uses;
}

/** The cap closest to its limit, as a share of it. */
function nearestBudget(uses: readonly BudgetUse[]): BudgetUse | undefined {
  let nearest: BudgetUse | undefined;
  for (const use of uses) {
    if (use.cap <= 0) continue;
    if (!nearest || use.used / use.cap > nearest.used / nearest.cap) nearest = use;
  }
  return nearest;
}

/** Today's total and the cap nearest its limit: what the TUI footer shows after every call. */
export function spendSummary(ledger: LedgerView, budgets: BudgetsConfig, day: string, agents: readonly string[]): SpendSummary {
  const total = ledger.total(`g:${day}`);
  const nearest = nearestBudget(budgetUses(budgets, ledger, day, agents));
  const spent = agents.flatMap((agentId) => {
    const agent = ledger.total(`a:${day}:${agentId}`);
    return agent.tokens > 0 || agent.usd > 0 ? [{ agentId, usd: agent.usd, tokens: agent.tokens }] : [];
  });
  return { day, usd: total.usd, tokens: total.tokens, ...(nearest ? { nearest } : {}), agents: spent };
}

/** Today's spend picture: totals, per agent, interactive against background, every cap in force. */
export function spendStatus(
  ledger: LedgerView,
  budgets: BudgetsConfig,
  day: string,
  agents: readonly string[],
  paused: ReadonlyArray<{ session: string; at: number; reason: string }>,
): SpendStatus {
  const today = zero();
  const interactive = zero();
  const background = zero();
  const byAgent = new Map<string, Totals>();
  let estimatedCalls = 0;
  for (const row of ledger.usage(day)) {
    if (row.day !== day) continue;
    add(today, row);
    add(row.kind === 'interactive' ? interactive : background, row);
    let agent = byAgent.get(row.agent);
    if (!agent) {
      agent = zero();
      byAgent.set(row.agent, agent);
    }
    add(agent, row);
    estimatedCalls += row.estimated;
  }
  const known = [...new Set([...agents, ...byAgent.keys()])];
  const uses = budgetUses(budgets, ledger, day, known);
  const nearest = nearestBudget(uses);
  return {
    day,
    today,
    interactive,
    background,
    estimatedCalls,
    agents: [...byAgent].map(([agentId, totals]) => ({ agentId, ...totals })).sort((a, b) => b.usd - a.usd || b.tokens - a.tokens),
    budgets: uses,
    ...(nearest ? { nearest } : {}),
    paused: paused.map((row) => ({ sessionKey: row.session, at: row.at, reason: row.reason })),
  };
}
