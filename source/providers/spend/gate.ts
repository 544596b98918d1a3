import { randomUUID } from 'node:crypto';
import type { BudgetsConfig, Clock } from '../../config/index.js';
import { ProviderError } from '../errors.js';
import { estimateContextTokens } from '../tokens.js';
import type { ProviderEvent, Providers, ResolvedModel, ToolSchema, TurnRequest, Usage } from '../types.js';
import type { SpendStatus, SpendSummary } from '../../protocol/index.js';
import { dayOf, daysBefore } from './calendar.js';
import type { SpendCharge } from './charge.js';
import { SpendLedger, type Amount, type CallRecord, type Settlement, type UsageRow } from './ledger.js';
import { spendStatus, spendSummary } from './report.js';
import { formatAmount, limitsOf, raisedCap, scopesOf, type Limit } from './limits.js';

export interface SpendNotice {
  kind: 'warning' | 'paused';
  text: string;
  sessionKey?: string;
  agentId?: string;
}

export interface SpendGateOptions {
  /** The ledger's SQLite file (opened at the first call, not at start). */
  file: string;
  /** The live `budgets` section. */
  budgets(): BudgetsConfig;
  clock: Pick<Clock, 'now'>;
  /** A soft limit crossed or a session paused: said once, to the owner. */
  notify?(notice: SpendNotice): void;
  /** A call was settled (totals changed). */
  changed?(): void;
}

/** A call the gate let through: settled once the call ends, however it ends. */
export interface SpendTicket {
  record: CallRecord;
  charge: SpendCharge;
  worst: Amount;
  inputTokens: number;
  model: ResolvedModel;
}

const MINUTE_MS = 60_000;

interface RateWindow {
  calls: number[];
  tokens: Array<{ at: number; tokens: number }>;
}

/** Tool schemas are the same array for many calls of a turn: their estimate is taken once. */
const toolTokens = new WeakMap<readonly ToolSchema[], number>();

function estimateInput(request: TurnRequest, model: ResolvedModel): number {
  let tools = toolTokens.get(request.tools);
  if (tools === undefined) {
    tools = estimateContextTokens({ system: '', messages: [], tools: request.tools }, model.api);
    toolTokens.set(request.tools, tools);
  }
  return tools + estimateContextTokens({ system: request.system, messages: request.messages, tools: [] }, model.api);
}

function price(model: ResolvedModel, input: number, output: number): number {
  return (input * model.cost.input + output * model.cost.output) / 1_000_000;
}

/**
 * Budgets enforced before every model call. The call's worst case (the
 * request's estimated input plus its output cap, at the dearest model it may
 * fall back to) is reserved against every cap that applies; a call that would
 * cross a cap is not made. After the call the reservation is settled with the
 * provider's figures (estimated, and marked so, when it reports none).
 */
export class SpendGate {
  readonly #options: SpendGateOptions;
  #ledger: SpendLedger | undefined;
  #paused: Map<string, string> | undefined;
  #day = '';
  readonly #rates = new Map<string, RateWindow>();
  #closed = false;
  #sweptAt = 0;

  constructor(options: SpendGateOptions) {
    this.#options = options;
  }

  get ledger(): SpendLedger {
    if (this.#closed) throw new ProviderError('aborted', 'The gateway is stopping; no model call is made now.');
    if (!this.#ledger) {
      this.#ledger = new SpendLedger(this.#options.file);
      this.#paused = new Map(this.#ledger.paused().map((row) => [row.session, row.reason]));
    }
    return this.#ledger;
  }

  today(): string {
    const day = dayOf(this.#options.clock.now(), this.#options.budgets().timezone);
    if (day !== this.#day) {
      // Totals are keyed by day: yesterday's are never read again.
      if (this.#day) this.#ledger?.forgetCached();
      this.#day = day;
    }
    return day;
  }

  /** Providers whose every call passes the gate first. */
  wrap(providers: Providers): Providers {
    const gate = this;
    return {
      ...providers,
      async *streamTurn(request: TurnRequest): AsyncIterable<ProviderEvent> {
        const ticket = gate.reserve(request, (ref) => providers.resolveModel(ref));
        let usage: Usage | undefined;
        let streamed = 0;
        let done = false;
        try {
          for await (const event of providers.streamTurn(request)) {
            if (event.type === 'usage') usage = event.usage;
            else if (event.type === 'text_delta' || event.type === 'thinking_delta') streamed += event.text.length;
            else if (event.type === 'done') {
              usage = event.usage ?? usage;
              done = true;
            }
            yield event;
          }
        } finally {
          gate.settle(ticket, usage, { streamedChars: streamed, completed: done });
        }
      },
    };
  }

  /** Checks every cap against the call's worst case and reserves it; throws a `budget` ProviderError when it does not fit. */
  reserve(request: TurnRequest, resolve: (ref: string) => ResolvedModel): SpendTicket {
    const now = this.#options.clock.now();
    const budgets = this.#options.budgets();
    const charge: SpendCharge = request.charge ?? { agentId: 'unknown', sessionKey: 'unattributed', kind: 'interactive' };
    const ledger = this.ledger;
    const pausedWhy = this.#paused?.get(charge.sessionKey);
    if (pausedWhy !== undefined) throw pausedError(charge.sessionKey, pausedWhy);
    this.#sweepRates(now);
    this.#runaway(charge, budgets, now);
    const model = this.#dearest(request, resolve);
    const inputTokens = estimateInput(request, model);
    const output = Math.min(request.maxOutputTokens ?? model.maxOutput, model.maxOutput);
    const worst = { tokens: inputTokens + output, usd: price(model, inputTokens, output) };
    const day = this.today();
    for (const limit of limitsOf(budgets, charge, day)) {
      const spent = ledger.total(limit.scope)[limit.unit];
      if (spent + worst[limit.unit] > limit.cap) throw stopped(limit, spent, worst[limit.unit]);
    }
    const record: CallRecord = {
      id: randomUUID(),
      at: now,
      day,
      agent: charge.agentId,
      session: charge.sessionKey,
      model: model.ref,
      kind: charge.kind,
      scopes: scopesOf(charge, day),
    };
    try {
      ledger.reserve(record, worst);
    } catch (error) {
      // Fail closed: a call whose reservation is not on disk could be paid for and forgotten.
      throw new ProviderError(
        'budget',
        `The spend ledger could not record this call (${error instanceof Error ? error.message : String(error)}), so it was not made.`,
        {
          budget: { key: 'ledger', ask: false, hint: 'Free disk space in the state directory (`claw doctor` shows where it is), then send the message again.' },
        },
      );
    }
    this.#rate(charge.sessionKey).calls.push(now);
    return { record, charge, worst, inputTokens, model };
  }

  /** Replaces the reservation with the call's real cost; warns once when a cap's warning share is crossed. */
  settle(ticket: SpendTicket, usage: Usage | undefined, how: { streamedChars: number; completed: boolean }): void {
    // A call cut by the stop is settled as a crash's would be, when the ledger opens next.
    if (this.#closed) return;
    const actual = settlementOf(ticket, usage, how);
    this.ledger.settle(ticket.record, ticket.worst, actual);
    if (actual.tokens > 0) this.#rate(ticket.record.session).tokens.push({ at: this.#options.clock.now(), tokens: actual.tokens });
    this.#warn(ticket);
    this.#options.changed?.();
  }

  /** The first hard cap work of this kind has already used up (or the session's pause), as a sentence; undefined when there is room. */
  exhausted(charge: Pick<SpendCharge, 'agentId' | 'sessionKey' | 'kind'>): string | undefined {
    const ledger = this.ledger;
    const paused = this.#paused?.get(charge.sessionKey);
    if (paused !== undefined) return pausedError(charge.sessionKey, paused).message;
    for (const limit of limitsOf(this.#options.budgets(), charge, this.today())) {
      if (limit.ask) continue;
      const spent = ledger.total(limit.scope)[limit.unit];
      if (spent >= limit.cap) return `${limit.label} has spent ${formatAmount(limit.unit, spent)} of ${formatAmount(limit.unit, limit.cap)} (${limit.key})`;
    }
    return undefined;
  }

  /** Today's total and the nearest cap (the `spend` event). */
  summary(agents: readonly string[]): SpendSummary {
    return spendSummary(this.ledger, this.#options.budgets(), this.today(), agents);
  }

  /** Today's spend and every cap in force (`claw budget`, `/cost`, the TUI footer). */
  status(agents: readonly string[]): SpendStatus {
    return spendStatus(this.ledger, this.#options.budgets(), this.today(), agents, this.ledger.paused());
  }

  /** Spend rows of the last `days` days, today included (`claw usage`). */
  usage(days: number): { day: string; rows: UsageRow[] } {
    const day = this.today();
    return { day, rows: this.ledger.usage(daysBefore(day, days - 1)) };
  }

  /** Lets a paused session make calls again; false when it was not paused. */
  resume(sessionKey: string): boolean {
    const ledger = this.ledger;
    this.#paused?.delete(sessionKey);
    this.#rates.delete(sessionKey);
    return ledger.resume(sessionKey);
  }

  /** Closes the ledger; the daemon is stopping. */
  close(): void {
    this.#closed = true;
    this.#ledger?.close();
    this.#ledger = undefined;
  }

  /** The highest-priced model the request may end up calling (the primary and its fallbacks). */
  #dearest(request: TurnRequest, resolve: (ref: string) => ResolvedModel): ResolvedModel {
    let chosen: ResolvedModel | undefined;
    for (const ref of [request.model, ...(request.fallbacks ?? [])]) {
      let model: ResolvedModel;
      try {
        model = resolve(ref);
      } catch {
        continue;
      }
      if (!chosen || model.cost.input + model.cost.output > chosen.cost.input + chosen.cost.output) chosen = model;
    }
    // Nothing resolves: the primary's own error (not_configured) says what to set up.
    return chosen ?? resolve(request.model);
  }

  /** Forgets the rate windows of sessions quiet for a minute (webhook and cron runs open a new session each). */
  #sweepRates(now: number): void {
    if (now - this.#sweptAt < MINUTE_MS) return;
    this.#sweptAt = now;
    for (const [sessionKey, window] of this.#rates) {
      const last = Math.max(window.calls.at(-1) ?? 0, window.tokens.at(-1)?.at ?? 0);
      if (last <= now - MINUTE_MS) this.#rates.delete(sessionKey);
    }
  }

  #rate(sessionKey: string): RateWindow {
    let window = this.#rates.get(sessionKey);
    if (!window) {
      window = { calls: [], tokens: [] };
      this.#rates.set(sessionKey, window);
    }
    return window;
  }

  /** Pauses a session calling faster than `budgets.runaway` allows (the loop that spends while nobody watches). */
  #runaway(charge: SpendCharge, budgets: BudgetsConfig, now: number): void {
    const { callsPerMinute, tokensPerMinute } = budgets.runaway;
    const window = this.#rates.get(charge.sessionKey);
    if (!window) return;
    const since = now - MINUTE_MS;
    while (window.calls.length > 0 && (window.calls[0] ?? 0) <= since) window.calls.shift();
    while (window.tokens.length > 0 && (window.tokens[0]?.at ?? 0) <= since) window.tokens.shift();
    const tokens = window.tokens.reduce((sum, entry) => sum + entry.tokens, 0);
    let reason: string | undefined;
    if (callsPerMinute != null && window.calls.length >= callsPerMinute)
      reason = `${window.calls.length} model calls in the last minute (budgets.runaway.callsPerMinute is ${callsPerMinute})`;
    else if (tokensPerMinute != null && tokens >= tokensPerMinute)
      reason = `${formatAmount('tokens', tokens)} in the last minute (budgets.runaway.tokensPerMinute is ${tokensPerMinute})`;
    if (!reason) return;
    this.ledger.pause(charge.sessionKey, now, reason);
    this.#paused?.set(charge.sessionKey, reason);
    this.#rates.delete(charge.sessionKey);
    const error = pausedError(charge.sessionKey, reason);
    this.#options.notify?.({ kind: 'paused', text: error.message, sessionKey: charge.sessionKey, agentId: charge.agentId });
    throw error;
  }

  #warn({ record, charge }: SpendTicket): void {
    const budgets = this.#options.budgets();
    const limits = limitsOf(budgets, charge, record.day).filter((limit) => !limit.ask);
    for (const limit of limits) {
      const spent = this.ledger.total(limit.scope)[limit.unit];
      if (spent < limit.cap * budgets.warnAt || !this.ledger.warnOnce(limit.scope, limit.key)) continue;
      const share = Math.round((spent / limit.cap) * 100);
      this.#options.notify?.({
        kind: 'warning',
        text: `Spend warning: ${limit.label} has used ${share}% of ${limit.key} (${formatAmount(limit.unit, spent)} of ${formatAmount(limit.unit, limit.cap)}). Work stops at the cap; raise it with \`claw budget set ${limit.key} ${raisedCap(limit)}\`.`,
        sessionKey: record.session,
        agentId: record.agent,
      });
    }
  }
}

function settlementOf(ticket: SpendTicket, usage: Usage | undefined, how: { streamedChars: number; completed: boolean }): Settlement {
  if (usage) {
    const cacheRead = usage.cacheRead ?? 0;
    const cacheWrite = usage.cacheWrite ?? 0;
    return {
      tokens: usage.input + usage.output + cacheRead + cacheWrite,
      usd: usage.cost ?? 0,
      input: usage.input,
      output: usage.output,
      cacheRead,
      cacheWrite,
      estimated: false,
    };
  }
  // A request refused before any output is not billed; one that produced output (or finished) without figures is estimated.
  if (!how.completed && how.streamedChars === 0) return { tokens: 0, usd: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, estimated: false };
  const output = Math.ceil(how.streamedChars / 4);
  return {
    tokens: ticket.inputTokens + output,
    usd: price(ticket.model, ticket.inputTokens, output),
    input: ticket.inputTokens,
    output,
    cacheRead: 0,
    cacheWrite: 0,
    estimated: true,
  };
}

function stopped(limit: Limit, spent: number, worst: number): ProviderError {
  const what = `${limit.label} has spent ${formatAmount(limit.unit, spent)} of ${formatAmount(limit.unit, limit.cap)}`;
  const next = `the next model call could cost up to ${formatAmount(limit.unit, worst)}`;
  if (limit.ask)
    return new ProviderError('budget', `Budget: ${what} (${limit.key}); ${next}.`, {
      budget: {
        key: limit.key,
        ask: true,
        hint: `Approve going past it for this turn, or raise it with \`claw budget set ${limit.key} ${raisedCap(limit)}\`.`,
      },
    });
  return new ProviderError('budget', `Budget reached: ${what} (${limit.key}); ${next}, so it was not made.`, {
    budget: { key: limit.key, ask: false, hint: `Raise it with \`claw budget set ${limit.key} ${raisedCap(limit)}\`, or ${waitFor(limit.key)}.` },
  });
}

function waitFor(key: string): string {
  if (key.startsWith('budgets.turn')) return 'ask again in a new message';
  if (key.startsWith('budgets.session')) return 'start a new session with /new';
  return key.includes('Monthly') ? 'wait for the next month' : 'wait for midnight';
}

function pausedError(sessionKey: string, reason: string): ProviderError {
  return new ProviderError('budget', `Session ${sessionKey} is paused by the runaway guard: ${reason}.`, {
    budget: {
      key: 'runaway',
      ask: false,
      hint: `Resume it with \`claw budget resume ${sessionKey}\` or /cost resume once you have looked at what it was doing.`,
    },
  });
}
