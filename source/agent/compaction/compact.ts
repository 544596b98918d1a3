import { estimateMessageTokens, estimateTokens, type WireApi } from '../../providers/index.js';
import { SUMMARY_PREFIX, type ContextThresholds } from '../context/index.js';
import type { HistoryMessage } from '../turn-types.js';
import { extractIdentifiers, identifierAppendix, missingIdentifiers, type Identifier } from './identifiers.js';
import { chunkPrompt, mergePrompt, missingIdentifiersPrompt, renderChunk, renderUnits, SUMMARISER_SYSTEM, SUMMARY_SECTIONS } from './prompts.js';
import { groupUnits, maxChunkTokens, splitForCompaction, stageChunks, type Unit } from './units.js';

export interface SummaryRequest {
  system: string;
  prompt: string;
  maxOutputTokens: number;
  signal?: AbortSignal;
}

/** One model call that returns the text of a summary. */
export type Summariser = (request: SummaryRequest) => Promise<string>;

export interface CompactionRequest {
  /** The assembled history, summary of the compaction in force first. */
  messages: readonly HistoryMessage[];
  /** Tokens compaction cannot touch: system prompt and tool schemas. */
  fixedTokens: number;
  window: number;
  family: WireApi;
  thresholds: ContextThresholds;
  maxAttempts: number;
  summarise: Summariser;
  /** `/compact <instructions>` */
  instructions?: string;
  /**
   * The context size as the caller knows it (provider-reported); results are
   * scaled to it. Defaults to the estimate.
   */
  usedTokens?: number;
  signal?: AbortSignal;
}

interface Outcome {
  tokensBefore: number;
  attempts: number;
  summariserCalls: number;
}

export type CompactionResult =
  | (Outcome & { ok: true; summary: string; firstKeptEntryId: string; tokensAfter: number; summarisedMessages: number; appendedIdentifiers: string[] })
  | (Outcome & { ok: false; reason: string });

const MIN_BUDGET = 64;
/** Characters per token assumed when sizing rendered text: low, so inputs stay under the token limit. */
const CHARS_PER_TOKEN_FLOOR = 3;

class Calls {
  count = 0;
  constructor(private readonly request: CompactionRequest) {}

  async run(prompt: string, maxOutputTokens: number): Promise<string> {
    this.count += 1;
    const text = await this.request.summarise({
      system: SUMMARISER_SYSTEM,
      prompt,
      maxOutputTokens,
      ...(this.request.signal ? { signal: this.request.signal } : {}),
    });
    return text.trim();
  }
}

async function stagedSummary(calls: Calls, chunks: readonly Unit[][], limit: number, budget: number, instructions: string | undefined): Promise<string> {
  const maxChars = limit * CHARS_PER_TOKEN_FLOOR;
  if (chunks.length === 1) return calls.run(chunkPrompt(renderChunk(chunks[0]!, maxChars), 0, 1, budget, instructions), budget);
  const partials: string[] = [];
  for (const [index, chunk] of chunks.entries())
    partials.push(await calls.run(chunkPrompt(renderChunk(chunk, maxChars), index, chunks.length, budget, instructions), budget));
  // Partials that came back too long are cut so the merge input still fits.
  const perPartial = Math.floor(maxChars / partials.length);
  return calls.run(
    mergePrompt(
      partials.map((partial) => partial.slice(0, perPartial)),
      budget,
      instructions,
    ),
    budget,
  );
}

/** A summary with every identifier: named once to the summariser, then appended mechanically. */
async function withIdentifiers(
  calls: Calls,
  summary: string,
  identifiers: readonly Identifier[],
  budget: number,
  instructions: string | undefined,
): Promise<{ summary: string; appended: string[] }> {
  let missing = missingIdentifiers(summary, identifiers);
  if (missing.length === 0) return { summary, appended: [] };
  const revised = await calls.run(missingIdentifiersPrompt(summary, missing, budget, instructions), budget);
  const revisedMissing = missingIdentifiers(revised, identifiers);
  if (revised && revisedMissing.length < missing.length) {
    summary = revised;
    missing = revisedMissing;
  }
  if (missing.length === 0) return { summary, appended: [] };
  return { summary: `${summary}\n${identifierAppendix(missing)}`, appended: missing.map((identifier) => identifier.value) };
}

/** The required sections a summary lacks (a heading or bold line naming each, any level or case). */
function missingSections(summary: string): string[] {
  return SUMMARY_SECTIONS.filter((name) => !new RegExp(`^\\s*(#{1,6}\\s*|\\*\\*)${name}`, 'im').test(summary));
}

/** The start of what the summariser said, on one line, for a failure message. */
function preview(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 80)}…` : line;
}

function sum(units: readonly Unit[]): number {
  return units.reduce((total, unit) => total + unit.tokens, 0);
}

/**
 * One compaction trigger: summarise the older history in stages, keep the
 * recent tail verbatim, make sure every identifier survives. Bounded: at most
 * `maxAttempts` attempts, each asking for a shorter summary; an attempt counts
 * only if it makes the context smaller, and a summariser that keeps answering
 * too long ends in a failure result, never another round.
 */
export async function compactHistory(request: CompactionRequest): Promise<CompactionResult> {
  const { family, thresholds } = request;
  const units = groupUnits(request.messages, family);
  const estimatedBefore = request.fixedTokens + sum(units);
  const scale = request.usedTokens !== undefined && estimatedBefore > 0 ? request.usedTokens / estimatedBefore : 1;
  const tokensBefore = Math.round(estimatedBefore * scale);
  const split = splitForCompaction(units, thresholds.keepRecent);
  const calls = new Calls(request);
  const failed = (reason: string, attempts: number): CompactionResult => ({ ok: false, reason, tokensBefore, attempts, summariserCalls: calls.count });
  const firstKept = split.keep[0]?.messages[0];
  const foldsNew = split.summarise.some((unit) => unit.messages[0]?.role !== 'user' || unit.messages[0].meta?.synthetic !== 'compaction');
  if (!firstKept || !foldsNew) return failed('there is no older history to summarise: the recent messages alone fill the context', 0);

  const identifiers = extractIdentifiers(renderUnits(split.summarise));
  const limit = maxChunkTokens(request.window);
  const chunks = stageChunks(split.summarise, limit);
  const fixedAfter = request.fixedTokens + sum(split.keep);
  const summarised = sum(split.summarise);
  // Aim below the compaction mark, so the next turn does not compact again at once.
  const room = thresholds.compact - fixedAfter;
  const baseBudget = Math.max(MIN_BUDGET, Math.min(Math.floor(summarised / 3), Math.floor(limit / 2), Math.floor(room * 0.8)));
  const tokensAfterOf = (summary: string): number => fixedAfter + estimateMessageTokens({ role: 'user', content: SUMMARY_PREFIX + summary }, family);

  let best: { summary: string; tokensAfter: number; appended: string[] } | undefined;
  let attempts = 0;
  let lastProblem = 'the summariser returned nothing';
  // What each attempt returned and why it was refused: the failure says it, not just the last reason.
  const refused: string[] = [];
  for (attempts = 1; attempts <= request.maxAttempts; attempts += 1) {
    const budget = Math.max(MIN_BUDGET, Math.floor(baseBudget / 2 ** (attempts - 1)));
    try {
      const draft = await stagedSummary(calls, chunks, limit, budget, request.instructions);
      if (!draft) {
        lastProblem = 'the summariser returned nothing';
        refused.push(`${attempts}: an empty answer`);
        continue;
      }
      const checked = await withIdentifiers(calls, draft, identifiers, budget, request.instructions);
      const tokensAfter = tokensAfterOf(checked.summary);
      if (tokensAfter >= estimatedBefore) {
        lastProblem = `the summary (${estimateTokens(checked.summary, family)} tokens) did not make the context smaller`;
        refused.push(`${attempts}: ${estimateTokens(checked.summary, family)} tokens, larger than what it replaces`);
        continue;
      }
      const lacking = missingSections(checked.summary);
      if (lacking.length > 0) {
        lastProblem = 'the summaries lacked the required sections';
        refused.push(
          `${attempts}: ${checked.summary.length} characters without ${lacking.map((name) => `"${name}"`).join(', ')} ("${preview(checked.summary)}")`,
        );
        continue;
      }
      if (!best || tokensAfter < best.tokensAfter) best = { summary: checked.summary, tokensAfter, appended: checked.appended };
      if (tokensAfter <= thresholds.compact) break;
      lastProblem = 'the summary still left the context above the compaction mark';
    } catch (error) {
      if (request.signal?.aborted) throw error;
      return failed(`the summariser failed: ${error instanceof Error ? error.message : String(error)}`, attempts);
    }
  }
  attempts = Math.min(attempts, request.maxAttempts);
  if (!best) return failed(`${lastProblem} after ${attempts} attempt${attempts === 1 ? '' : 's'} (attempt ${refused.join('; attempt ')})`, attempts);
  return {
    ok: true,
    summary: best.summary,
    firstKeptEntryId: firstKept.id,
    tokensBefore,
    tokensAfter: Math.round(best.tokensAfter * scale),
    attempts,
    summariserCalls: calls.count,
    summarisedMessages: split.summarise.reduce((total, unit) => total + unit.messages.length, 0),
    appendedIdentifiers: best.appended,
  };
}
