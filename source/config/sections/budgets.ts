import { z } from 'zod';
import { lazySchema } from '../../protocol/index.js';

/** A cap in tokens or US dollars; `null` (or absent) means none. */
const tokens = () => z.number().int().min(0).nullable().optional();
const usd = () => z.number().min(0).nullable().optional();

const ceiling = lazySchema(() => z.strictObject({ maxTokens: tokens(), maxUsd: usd() }));
const period = lazySchema(() => z.strictObject({ tokens: tokens(), usd: usd() }));
const daily = lazySchema(() => z.strictObject({ dailyTokens: tokens(), dailyUsd: usd() }));

/** The background kinds a budget can name (`budgets.background.<kind>`). */
export const backgroundKinds = ['heartbeat', 'cron', 'dreaming', 'subagents', 'webhooks'] as const;
export type BackgroundKind = (typeof backgroundKinds)[number];

/**
 * Spend caps, checked before every model call against its worst case (the
 * request's input plus its output cap). Defaults protect a new user without
 * getting in the way: background work together stops at $1 or 1M tokens a
 * day (a 30-minute heartbeat with a 15k-token prompt spends ~720k), and an
 * interactive turn asks the owner before it goes past $1 or 1M tokens.
 */
export const budgetsSection = lazySchema(() =>
  z.strictObject({
    /** One turn: interactive turns ask the owner to go past it, background turns stop. */
    turn: ceiling.default({ maxTokens: 1_000_000, maxUsd: 1 }),
    /** One session (its current transcript), its subagents' calls included. */
    session: ceiling.prefault({}),
    /** Each agent per day and per month, its subagents included. */
    agentDaily: period.prefault({}),
    agentMonthly: period.prefault({}),
    /** Heartbeat, cron, dreaming, subagents and webhooks together per day, and each kind on its own. */
    background: z
      .strictObject({
        dailyTokens: tokens().default(1_000_000),
        dailyUsd: usd().default(1),
        heartbeat: daily.optional(),
        cron: daily.optional(),
        dreaming: daily.optional(),
        subagents: daily.optional(),
        webhooks: daily.optional(),
      })
      .prefault({}),
    /** Everything together per day. */
    globalDaily: period.prefault({}),
    /** A session spending faster than this is paused until the owner resumes it. */
    runaway: z
      .strictObject({
        tokensPerMinute: tokens().default(2_000_000),
        callsPerMinute: z.number().int().min(1).nullable().optional().default(60),
      })
      .prefault({}),
    /** Share of a cap at which the owner is warned once (per cap and day). */
    warnAt: z.number().min(0.1).max(1).default(0.8),
    /** Days and months begin at midnight here (IANA name); default the machine's zone. */
    timezone: z.string().min(1).optional(),
  }),
);

export type BudgetsConfig = z.output<typeof budgetsSection>;
