import { z } from 'zod';
import { defineMethod } from '../define.js';
import { lazySchema } from '../lazy-schema.js';

/** One cap and how much of it is used now (`used / cap`). */
export const budgetUse = lazySchema(() =>
  z.strictObject({
    /** The config key (`budgets.background.dailyUsd`): what `claw budget set` takes. */
    key: z.string(),
    label: z.string(),
    unit: z.enum(['tokens', 'usd']),
    cap: z.number().min(0),
    used: z.number().min(0),
  }),
);
export type BudgetUse = z.infer<typeof budgetUse>;

const amount = () => z.strictObject({ usd: z.number().min(0), tokens: z.number().int().min(0), calls: z.number().int().min(0) });

export const spendStatus = lazySchema(() =>
  z.strictObject({
    /** The budgets' day (`YYYY-MM-DD` in `budgets.timezone`). */
    day: z.string(),
    today: amount(),
    interactive: amount(),
    background: amount(),
    /** Calls whose figures were estimated (the provider reported none, or a crash cut them). */
    estimatedCalls: z.number().int().min(0),
    agents: z.array(z.strictObject({ agentId: z.string(), usd: z.number().min(0), tokens: z.number().int().min(0), calls: z.number().int().min(0) })),
    /** Every daily and monthly cap in force, with what it has used. */
    budgets: z.array(budgetUse),
    /** The cap closest to being reached, as a share. */
    nearest: budgetUse.optional(),
    paused: z.array(z.strictObject({ sessionKey: z.string(), at: z.number(), reason: z.string() })),
  }),
);
export type SpendStatus = z.infer<typeof spendStatus>;

/** Today's total and the nearest cap: the TUI footer's figures. */
export const spendSummary = lazySchema(() =>
  z.strictObject({
    day: z.string(),
    usd: z.number().min(0),
    tokens: z.number().int().min(0),
    nearest: budgetUse.optional(),
    /** Today's spend charged to each agent (a subagent's to its parents' agents too); agents that spent nothing are left out. */
    agents: z.array(z.strictObject({ agentId: z.string(), usd: z.number().min(0), tokens: z.number().int().min(0) })),
  }),
);
export type SpendSummary = z.infer<typeof spendSummary>;

export const usageRow = lazySchema(() =>
  z.strictObject({
    day: z.string(),
    agent: z.string(),
    session: z.string(),
    model: z.string(),
    kind: z.string(),
    calls: z.number().int().min(0),
    tokens: z.number().int().min(0),
    usd: z.number().min(0),
    estimated: z.number().int().min(0),
  }),
);
export type UsageRecord = z.infer<typeof usageRow>;

export const spendMethods = {
  'spend.status': defineMethod({
    name: 'spend.status',
    description: "Today's spend (interactive and background, per agent), every cap with its use, and the sessions the runaway guard paused.",
    params: () => z.strictObject({}).optional(),
    result: () => spendStatus,
    scope: 'read',
    mutating: false,
  }),
  'spend.usage': defineMethod({
    name: 'spend.usage',
    description: 'Spend per day, agent, session, model and kind over the last N days (today included).',
    params: () => z.strictObject({ days: z.number().int().min(1).max(366) }),
    result: () => z.strictObject({ day: z.string(), rows: z.array(usageRow) }),
    scope: 'read',
    mutating: false,
  }),
  'spend.resume': defineMethod({
    name: 'spend.resume',
    description: 'Let a session the runaway guard paused make model calls again.',
    params: () => z.strictObject({ sessionKey: z.string().min(1), idempotencyKey: z.string().max(128).optional() }),
    result: () => z.strictObject({ resumed: z.boolean() }),
    scope: 'write',
    mutating: true,
  }),
};
