import { estimateMessageTokens, type WireApi } from '../../providers/index.js';
import { isSummaryMessage } from '../context/index.js';
import type { HistoryMessage } from '../turn-types.js';

/** Estimates undercount some content (code, JSON): chunk sizes leave this much slack. */
export const SAFETY_MARGIN = 1.2;
/** Share of the window one summariser input may take. */
export const CHUNK_RATIO = 0.4;
/** Parts older history is split into before summarising. */
export const STAGE_PARTS = 2;

/**
 * Messages that must stay together: an assistant message with its tool
 * calls and every result of those calls. Compaction only cuts between units,
 * so no call is ever summarised away while its result stays (or vice versa).
 */
export interface Unit {
  messages: HistoryMessage[];
  tokens: number;
}

export function groupUnits(messages: readonly HistoryMessage[], family: WireApi): Unit[] {
  const units: Unit[] = [];
  for (const message of messages) {
    const tokens = estimateMessageTokens(message, family);
    const last = units[units.length - 1];
    if (message.role === 'toolResult' && last) {
      // Results follow their calls on disk (the loader repairs any that do not), so the unit before is the caller's.
      last.messages.push(message);
      last.tokens += tokens;
      continue;
    }
    units.push({ messages: [message], tokens });
  }
  return units;
}

export interface CompactionSplit {
  /** Older units to summarise (a previous summary, if any, comes first). */
  summarise: Unit[];
  /** Recent units kept verbatim. */
  keep: Unit[];
}

/**
 * Keeps the most recent units up to `keepRecent` tokens (at most half of the
 * history, so a pass always has something to fold), always at least the
 * last unit; never keeps a previous summary, which is folded into the new one.
 */
export function splitForCompaction(units: readonly Unit[], keepRecent: number): CompactionSplit {
  const total = units.reduce((sum, unit) => sum + unit.tokens, 0);
  const budget = Math.min(keepRecent, Math.floor(total / 2));
  const floor = units[0] && isSummaryMessage(units[0].messages[0]!) ? 1 : 0;
  let cut = units.length;
  let kept = 0;
  while (cut > floor) {
    const unit = units[cut - 1]!;
    if (cut < units.length && kept + unit.tokens > budget) break;
    kept += unit.tokens;
    cut -= 1;
  }
  return { summarise: units.slice(0, cut), keep: units.slice(cut) };
}

function marginTokens(unit: Unit): number {
  return Math.ceil(unit.tokens * SAFETY_MARGIN);
}

/** Largest summariser input, in estimated tokens, for a window. */
export function maxChunkTokens(window: number): number {
  return Math.max(256, Math.floor((window * CHUNK_RATIO) / SAFETY_MARGIN));
}

function chunk(units: readonly Unit[], limit: number): Unit[][] {
  const chunks: Unit[][] = [];
  let current: Unit[] = [];
  let size = 0;
  for (const unit of units) {
    const tokens = marginTokens(unit);
    if (current.length > 0 && size + tokens > limit) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(unit);
    size += tokens;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/**
 * The summariser inputs for older history: one chunk when it fits, otherwise
 * `parts` parts of about equal tokens, each cut into chunks that fit. A unit
 * larger than a chunk gets a chunk of its own (its text is cut when rendered).
 */
export function stageChunks(units: readonly Unit[], limit: number, parts = STAGE_PARTS): Unit[][] {
  const total = units.reduce((sum, unit) => sum + marginTokens(unit), 0);
  if (total <= limit || units.length <= 1) return [units.slice()];
  const groups: Unit[][] = [[]];
  let running = 0;
  for (const unit of units) {
    const group = groups[groups.length - 1]!;
    if (group.length > 0 && groups.length < parts && running >= (total * groups.length) / parts) groups.push([unit]);
    else group.push(unit);
    running += marginTokens(unit);
  }
  return groups.flatMap((group) => chunk(group, limit));
}
