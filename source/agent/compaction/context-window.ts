import { randomUUID } from 'node:crypto';
import { estimateTokens, type Providers, type SpendCharge, type ToolSchema, type WireApi } from '../../providers/index.js';
import { formatTokens, type TranscriptEntry } from '../../protocol/index.js';
import type { BootstrapFileReport } from '../bootstrap.js';
import {
  accountContext,
  assembleContext,
  compactionHistory,
  contextEventPayload,
  guardToolResult,
  toolResultCap,
  toolSchemaTokens,
  type ContextAccount,
  type ContextSettings,
} from '../context/index.js';
import { ContextOverflow, type ContextEngine, type ContextEngineInfo } from '../context/engine.js';
import type { PromptSection } from '../system-prompt.js';
import type { HistoryMessage, TurnEvents, TurnSession } from '../turn-types.js';
import { compactHistory, type CompactionResult, type Summariser } from './compact.js';
import { memoryFlushDue } from './memory-flush.js';
import { initialRecoveryState, nextRecoveryStep, shrinkToolResults } from './overflow.js';
import { providerSummariser } from './provider-summariser.js';
import { pruneForCall, prunedNote, type SessionPruning } from '../context/prune-state.js';
import type { PreviewDecision, PreviewPlan } from '../context/compaction-previews.js';
import { extractIdentifiers } from './identifiers.js';
import { renderUnits } from './prompts.js';
import { groupUnits, maxChunkTokens, splitForCompaction } from './units.js';

/** The custom entry recording that a memory flush ran in a compaction cycle. */
export const MEMORY_FLUSH_RECORD = 'memory_flush';

/** Room the pre-flight check leaves for the reply: less than this and the call is not made. */
const PREFLIGHT_REPLY_ROOM = 1_024;

/** Used when the model is not in the catalogue; the catalogue's own default. */
const FALLBACK_WINDOW = 128_000;

export interface ContextWindowOptions {
  runId: string;
  session: TurnSession;
  events: TurnEvents;
  providers: Providers;
  model: string;
  fallbacks?: readonly string[];
  settings: ContextSettings;
  system: { text: string; sections: readonly PromptSection[] };
  bootstrap: readonly BootstrapFileReport[];
  tools: readonly ToolSchema[];
  signal?: AbortSignal;
  /**
   * Runs the silent memory-flush turn; absent inside that turn, which also
   * never compacts (it must not start another flush or compaction).
   */
  flush?: () => Promise<void>;
  /** Replaces the model as summariser (tests, benchmarks). */
  summarise?: Summariser;
  /** Whom the summariser's calls are charged to (the turn's or the command's). */
  charge?: SpendCharge;
  /** Old tool results pruned in what is sent (`context.pruning`); absent: sent as they are. */
  pruning?: SessionPruning;
  /** `context.recall`, for the recall engine. */
  recall?: { share: number; maxExchanges: number };
  /** Shows clients what an automatic compaction will do and waits for now / postpone (absent: it just runs). */
  preview?: (plan: PreviewPlan) => Promise<PreviewDecision>;
}

/** Compactions ever made in this transcript, undone ones included: the flush cycle number. */
function compactionCycle(entries: readonly TranscriptEntry[]): number {
  let count = 0;
  for (const entry of entries) if (entry.type === 'compaction') count += 1;
  return count;
}

function lastFlushCycle(entries: readonly TranscriptEntry[]): number | undefined {
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    const entry = entries[index]!;
    if (entry.type !== 'custom' || entry.customType !== MEMORY_FLUSH_RECORD) continue;
    const data = entry.data as { memoryFlushCompactionCount?: unknown } | null;
    if (typeof data?.memoryFlushCompactionCount === 'number') return data.memoryFlushCompactionCount;
  }
  return undefined;
}

/**
 * One session's context window during a turn (or a command): accounting,
 * the tool-result guard, auto-compaction with its memory flush, and the
 * bounded overflow recovery. Every change is announced as `agent`
 * compaction and `context` events.
 */
export class ContextWindow implements ContextEngine {
  readonly info: ContextEngineInfo = { id: 'default', ownsCompaction: false };
  readonly window: number;
  readonly family: WireApi;
  readonly #options: ContextWindowOptions;
  readonly #recovery = initialRecoveryState();
  #shrinkShare: number | undefined;
  /** A client postponed this turn's automatic compaction. */
  #postponed = false;
  /** The last account and the transcript it was made from: a turn asks several times with nothing appended in between. */
  #accounted: { entries: readonly TranscriptEntry[]; length: number; last: TranscriptEntry | undefined; decided: number; account: ContextAccount } | undefined;

  constructor(options: ContextWindowOptions) {
    this.#options = options;
    let window = FALLBACK_WINDOW;
    let family: WireApi = 'openai';
    try {
      const resolved = options.providers.resolveModel(options.model);
      window = resolved.contextWindow;
      family = resolved.api;
    } catch {
      // An unresolvable model fails the turn with its own setup hint; accounting just assumes the default window.
    }
    this.window = window;
    this.family = family;
  }

  get #session(): TurnSession {
    return this.#options.session;
  }

  /** System prompt and tool schemas: what compaction cannot shrink. */
  fixedTokens(): number {
    return estimateTokens(this.#options.system.text, this.family) + toolSchemaTokens(this.#options.tools, this.family);
  }

  async account(): Promise<ContextAccount> {
    return this.#accountNow();
  }

  #accountNow(): ContextAccount {
    const { system, bootstrap, tools, settings, pruning } = this.#options;
    const entries = this.#session.entries();
    const last = entries[entries.length - 1];
    const decided = pruning?.state.decided.size ?? 0;
    const memo = this.#accounted;
    // Transcripts only grow: the same array, length and last entry (and the same pruning) is the same history.
    if (memo && memo.entries === entries && memo.length === entries.length && memo.last === last && memo.decided === decided) return memo.account;
    const assembled = assembleContext(entries);
    // What is accounted is what is sent: results pruned on earlier calls count at their pruned size.
    const pruned = pruning ? pruneForCall(pruning, assembled.messages, { windowShare: 0, family: this.family, decide: false }) : undefined;
    const account = accountContext({
      window: this.window,
      family: this.family,
      systemPrompt: system,
      bootstrap,
      tools,
      messages: pruned?.messages ?? assembled.messages,
      freshFrom: assembled.freshFrom,
      settings,
    });
    const note = pruned && prunedNote(pruned.pruned);
    if (note) account.notes = [...(account.notes ?? []), note];
    this.#accounted = { entries, length: entries.length, last, decided, account };
    return account;
  }

  async report(account?: ContextAccount): Promise<ContextAccount> {
    const current = account ?? (await this.account());
    this.#options.events.context?.(contextEventPayload(this.#session.key, current, compactionHistory(this.#session.entries())));
    return current;
  }

  /** A tool result as it may enter the transcript: at most the configured share of the window. */
  ingest(content: string, toolName: string): string {
    return guardToolResult(content, toolName, toolResultCap(this.window, this.#options.settings.toolResultMaxShare), this.family).content;
  }

  /**
   * The history as this model call sends it: old tool results pruned (new
   * decisions once the prompt cache is cold), and cut tighter still once
   * overflow recovery asked for it.
   */
  assemble(messages: HistoryMessage[]): HistoryMessage[] {
    const pruning = this.#options.pruning;
    let sent = messages;
    if (pruning) {
      const windowShare = this.#accountNow().used / this.window;
      sent = pruneForCall(pruning, messages, { windowShare, family: this.family, decide: true }).messages;
      pruning.state.lastCallAt = pruning.now();
    }
    if (this.#shrinkShare === undefined) return sent;
    return shrinkToolResults(sent, this.window, this.#shrinkShare, this.family).messages;
  }

  flushDue(account: ContextAccount): boolean {
    if (!this.#options.flush) return false;
    const entries = this.#session.entries();
    return memoryFlushDue({
      enabled: this.#options.settings.memoryFlush.enabled,
      used: account.used,
      thresholds: account.thresholds,
      compactionCount: compactionCycle(entries),
      memoryFlushCompactionCount: lastFlushCycle(entries),
    });
  }

  /** Marks this compaction cycle's flush as done (before it runs, so a failing flush is not retried). */
  async recordFlush(): Promise<void> {
    await this.#session.append({
      type: 'custom',
      customType: MEMORY_FLUSH_RECORD,
      data: { memoryFlushCompactionCount: compactionCycle(this.#session.entries()) },
    });
  }

  async #flushIfDue(account: ContextAccount): Promise<void> {
    if (!this.#options.flush || !this.flushDue(account)) return;
    await this.recordFlush();
    await this.#options.flush();
  }

  /**
   * Compacts now. Announces start and end (or error with the reason) on the
   * `agent` stream; on success appends the compaction entry and publishes
   * the new context.
   */
  async compact({
    instructions,
    runId = this.#options.runId,
  }: {
    instructions?: string | undefined;
    runId?: string | undefined;
  } = {}): Promise<CompactionResult> {
    const account = await this.account();
    const base = { runId, sessionKey: this.#session.key, stream: 'compaction' as const };
    const { events, settings } = this.#options;
    events.agent({ ...base, phase: 'start', tokensBefore: account.used });
    const result = await compactHistory({
      messages: await this.#session.history(),
      fixedTokens: this.fixedTokens(),
      window: this.window,
      family: this.family,
      thresholds: account.thresholds,
      maxAttempts: settings.maxAttempts,
      summarise:
        this.#options.summarise ?? providerSummariser(this.#options.providers, this.#options.model, this.#options.fallbacks ?? [], this.#options.charge),
      usedTokens: account.used,
      ...(instructions ? { instructions } : {}),
      ...(this.#options.signal ? { signal: this.#options.signal } : {}),
    });
    if (!result.ok) {
      events.agent({ ...base, phase: 'error', tokensBefore: result.tokensBefore, detail: result.reason });
      return result;
    }
    await this.#session.append({
      type: 'compaction',
      summary: result.summary,
      firstKeptEntryId: result.firstKeptEntryId,
      tokensBefore: result.tokensBefore,
      tokensAfter: result.tokensAfter,
    });
    await this.#session.setCompactionCount(compactionHistory(this.#session.entries()).length);
    events.agent({
      ...base,
      phase: 'end',
      tokensBefore: result.tokensBefore,
      tokensAfter: result.tokensAfter,
      detail: `${result.summarisedMessages} messages summarised`,
    });
    await this.report();
    return result;
  }

  /**
   * Before a model call and after a turn: past the compaction mark, flush
   * memory if this cycle has not, then compact (once per call: a failed pass
   * is reported, not repeated). Inside the flush turn, nothing happens.
   */
  async beforeModelCall(): Promise<void> {
    if (!this.#options.flush) return;
    let account = await this.account();
    if (account.used <= account.thresholds.compact) return;
    // Past the mark, pruning old tool results comes first: it loses nothing the transcript does not keep.
    if (this.#prunePressed()) {
      account = this.#accountNow();
      if (account.estimated <= account.thresholds.compact) return;
    }
    await this.#flushIfDue(account);
    account = await this.account();
    let compacted = false;
    if (account.used > account.thresholds.compact && (await this.#previewed(account))) {
      compacted = true;
      await this.compact();
    }
    await this.#preflight(compacted);
  }

  /** Whether to compact now: true unless a client postponed it (once per turn) while it was previewed. */
  async #previewed(account: ContextAccount): Promise<boolean> {
    const preview = this.#options.preview;
    if (!preview) return true;
    if (this.#postponed) return false;
    const plan = this.#plan(account);
    if (!plan) return true;
    if ((await preview(plan)) === 'now') return true;
    this.#postponed = true;
    return false;
  }

  /** What a compaction now would summarise, and about how small the context would get. */
  #plan(account: ContextAccount): PreviewPlan | undefined {
    const units = groupUnits(assembleContext(this.#session.entries()).messages, this.family);
    const split = splitForCompaction(units, account.thresholds.keepRecent);
    const summarised = split.summarise.flatMap((unit) => unit.messages);
    if (summarised.length === 0 || split.keep.length === 0) return undefined;
    const sum = (list: typeof units) => list.reduce((total, unit) => total + unit.tokens, 0);
    const fixedAfter = this.fixedTokens() + sum(split.keep);
    const summaryTokens = Math.min(
      Math.floor(sum(split.summarise) / 3),
      Math.floor(maxChunkTokens(this.window) / 2),
      Math.max(64, Math.floor((account.thresholds.compact - fixedAfter) * 0.8)),
    );
    return {
      sessionKey: this.#session.key,
      runId: this.#options.runId,
      messages: summarised.length,
      turns: summarised.filter((message) => message.role === 'user' && message.meta?.synthetic === undefined).length,
      tokensBefore: account.used,
      tokensAfter: fixedAfter + summaryTokens,
      identifiers: extractIdentifiers(renderUnits(split.summarise))
        .map((identifier) => identifier.value)
        .slice(0, 50),
    };
  }

  /** Prunes at once, cache or not (the window is filling); whether it decided anything new. */
  #prunePressed(): boolean {
    const pruning = this.#options.pruning;
    if (!pruning) return false;
    const before = pruning.state.decided.size;
    const cleared = [...pruning.state.decided.values()].filter((mode) => mode === 'clear').length;
    pruneForCall(pruning, assembleContext(this.#session.entries()).messages, { windowShare: 1, family: this.family, decide: true, force: true });
    return pruning.state.decided.size !== before || [...pruning.state.decided.values()].filter((mode) => mode === 'clear').length !== cleared;
  }

  /**
   * The pressure check before a call: when what would be sent (system
   * prompt, tool schemas, images and history) leaves no room for a reply,
   * prune, then compact (unless that was just tried), and only then end the
   * turn saying what filled the window.
   */
  async #preflight(compacted: boolean): Promise<void> {
    const fits = (account: ContextAccount) => Math.min(account.used, account.estimated) + PREFLIGHT_REPLY_ROOM <= this.window;
    let account = this.#accountNow();
    if (fits(account)) return;
    if (this.#prunePressed()) account = this.#accountNow();
    if (fits(account)) return;
    if (!compacted && (await this.compact()).ok) account = this.#accountNow();
    if (fits(account)) return;
    const biggest = [...account.parts]
      .sort((a, b) => b.tokens - a.tokens)
      .slice(0, 4)
      .map((part) => `${part.name} ${formatTokens(part.tokens)}`)
      .join(', ');
    throw new ContextOverflow(
      `The next model call would not fit in the ${formatTokens(this.window)}-token window even after pruning tool results and compacting: ${formatTokens(account.estimated)} tokens, mostly ${biggest}.`,
      'Shorten the message or attach less, trim the bootstrap files or tools (/context list shows each), or switch to a model with a larger window (/model).',
    );
  }

  /** After a turn: the flush once the flush mark is passed, then compaction if due. */
  async afterTurn(): Promise<void> {
    if (!this.#options.flush) return;
    await this.#flushIfDue(await this.account());
    await this.beforeModelCall();
    await this.report();
  }

  /**
   * The next step after a provider's context-length error: flush and compact
   * once, then cut tool results tighter (only when that changes something),
   * then give up. Returns whether the model call should be retried.
   */
  async recoverOverflow(): Promise<boolean> {
    for (;;) {
      const step = nextRecoveryStep(this.#recovery, this.#options.flush !== undefined);
      if (step.kind === 'give_up') return false;
      if (step.kind === 'compact') {
        this.#recovery.compacted = true;
        await this.#flushIfDue(await this.account());
        if ((await this.compact()).ok) return true;
        continue;
      }
      this.#recovery.shrinks += 1;
      if (shrinkToolResults(await this.#session.history(), this.window, step.share, this.family).shrunk === 0) continue;
      this.#shrinkShare = step.share;
      return true;
    }
  }
}

/** A run id for compaction started outside a turn (`/compact`). */
export function commandRunId(): string {
  return `compact-${randomUUID()}`;
}
