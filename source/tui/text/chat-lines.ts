import { renderTerminal, type Measure, type TermSpan } from '../../markdown/index.js';
import type { ChatItem } from '../store/state.js';
import { formatTokens } from './format.js';
import { displayText, graphemes, stringWidth } from './width.js';
import { wrapText } from './wrap.js';

export interface Line {
  /** The characters of the line (what search marks and widths count). */
  text: string;
  /** The same characters in styled runs, for rendered Markdown; the line's own style applies when absent. */
  spans?: readonly TermSpan[];
  color?: 'cyan' | 'green' | 'yellow' | 'red' | 'gray' | 'magenta';
  bold?: boolean;
  dim?: boolean;
  /** Part of the message a search jumped to. */
  marked?: boolean;
}

const TOOL_OUTPUT_LINES = 12;

function block(prefix: string, text: string, width: number, style: Omit<Line, 'text'>): Line[] {
  const indent = ' '.repeat(prefix.length);
  return wrapText(text, width - prefix.length).map((line, i) => ({ ...style, text: (i === 0 ? prefix : indent) + line }));
}

const measure: Measure = { width: stringWidth, graphemes };

/** An assistant's Markdown rendered for the terminal, indented by two cells; `raw` shows the source as typed. */
function markdownLines(text: string, width: number, raw: boolean): Line[] {
  if (raw) return block('  ', text, width, {});
  return renderTerminal(displayText(text), width - 2, measure).map((spans) =>
    spans.length === 0 ? { text: '' } : { text: `  ${spans.map((span) => span.text).join('')}`, spans: [{ text: '  ' }, ...spans] },
  );
}

/**
 * The reply still streaming, in segments cut at blank lines outside code
 * fences: a segment that is complete renders once and is kept; each delta
 * renders only the open segment at the end, so a long reply costs O(n) to
 * stream, not O(n²).
 */
const segmentCache = new Map<string, Line[]>();
const MAX_SEGMENTS = 2000;

function segmentsOf(text: string): { settled: string[]; open: string } {
  const settled: string[] = [];
  let inFence = false;
  let start = 0;
  let at = 0;
  for (const line of text.split('\n')) {
    const next = at + line.length + 1;
    if (/^ {0,3}(```|~~~)/.test(line)) inFence = !inFence;
    if (!inFence && line.trim() === '' && next <= text.length) {
      const segment = text.slice(start, at);
      if (segment.trim() !== '') settled.push(segment);
      start = next;
    }
    at = next;
  }
  return { settled, open: text.slice(start) };
}

export function streamingLines(text: string, width: number, raw = false): Line[] {
  const { settled, open } = segmentsOf(text);
  const out: Line[] = [{ text: '' }];
  for (const segment of settled) {
    const key = `${width}\u0000${raw ? 1 : 0}\u0000${segment}`;
    let lines = segmentCache.get(key);
    if (!lines) {
      lines = markdownLines(segment, width, raw);
      if (segmentCache.size >= MAX_SEGMENTS) segmentCache.clear();
      segmentCache.set(key, lines);
    }
    out.push(...lines, { text: '' });
  }
  out.push(...markdownLines(`${open}▍`, width, raw));
  return out;
}

/** The lines one settled item draws at a width; pure, so results can be cached per item. */
export function itemLines(item: ChatItem, width: number, expanded: boolean, raw = false): Line[] {
  switch (item.kind) {
    case 'user': {
      const from = item.from ? [{ text: `  from ${item.from}`, color: 'gray' as const, dim: true }] : [];
      return [{ text: '' }, ...from, ...block('› ', item.text, width, { color: 'cyan', bold: true })];
    }
    case 'assistant':
      return [{ text: '' }, ...markdownLines(item.text, width, raw)];
    case 'notice':
      return block('· ', item.text, width, { color: 'gray' });
    case 'command':
      return [{ text: '' }, ...block('» ', item.text, width, { color: 'magenta', bold: true })];
    case 'compaction':
      return [
        {
          text: `── compacted ${formatTokens(item.before)} → ${item.after === undefined ? '?' : formatTokens(item.after)} tokens ──`,
          color: 'magenta',
          dim: true,
        },
      ];
    case 'error': {
      const lines = block('✗ ', item.message, width, { color: 'red', bold: true });
      return item.hint ? [...lines, ...block('  → ', item.hint, width, { color: 'yellow' })] : lines;
    }
    case 'tool': {
      const mark = item.status === 'running' ? '⋯' : item.status === 'error' ? '✗' : '✓';
      const head: Line = { text: `  ${mark} ${item.name} ${item.args}`.slice(0, Math.max(1, width * 3)), color: item.status === 'error' ? 'red' : 'yellow' };
      const headLines = wrapText(head.text, width)
        .slice(0, expanded ? undefined : 1)
        .map((text) => ({ ...head, text }));
      if (!expanded || item.output === '') return headLines;
      const out = wrapText(item.output, width - 4);
      const shown = out.length > TOOL_OUTPUT_LINES ? [...out.slice(0, TOOL_OUTPUT_LINES), `… ${out.length - TOOL_OUTPUT_LINES} more lines`] : out;
      return [...headLines, ...shown.map((text) => ({ text: `    ${text}`, color: 'gray' as const }))];
    }
  }
}

const cache = new WeakMap<ChatItem, { width: number; expanded: boolean; raw: boolean; lines: Line[] }>();

/** itemLines, computed once per item, width, expansion and raw view: settled items never re-wrap. */
export function cachedItemLines(item: ChatItem, width: number, expanded: boolean, raw = false): Line[] {
  const hit = cache.get(item);
  if (hit && hit.width === width && hit.expanded === expanded && hit.raw === raw) return hit.lines;
  const lines = itemLines(item, width, expanded, raw);
  cache.set(item, { width, expanded, raw, lines });
  return lines;
}

export interface ChatWindow {
  lines: Line[];
  /** Lines above the window that exist in memory, counted up to a screen; 0 means the top is reached. */
  above: number;
  /** Rows below the gap marker (see ChatLog.newer), when the walk reached it. */
  gapBelow?: number;
  /** Rows walked back from the bottom: all of them once the top is reached. */
  total: number;
}

/** Drawn where entries newer than the paged-back window are not in memory. */
export const GAP_LINE: Line = { text: '  ⋯ newer messages load as you scroll down (End jumps to the latest) ⋯', color: 'gray', dim: true };

/**
 * The `height` lines ending `scroll` lines above the bottom. Walks back from the
 * newest item only as far as needed, so the cost does not grow with history.
 */
export function chatWindow(
  items: readonly ChatItem[],
  streaming: string | undefined,
  width: number,
  height: number,
  scroll: number,
  expanded: boolean,
  markedEntryId?: string,
  footer: readonly Line[] = [],
  gapAfter?: string,
  raw = false,
): ChatWindow {
  // A screen more than is drawn, so `above` says whether a screen of margin is left.
  const need = 2 * height + scroll;
  const tail: Line[][] = [];
  let count = 0;
  if (footer.length > 0) {
    tail.push([...footer]);
    count += footer.length;
  }
  if (streaming !== undefined && streaming !== '') {
    const lines = streamingLines(streaming, width, raw);
    tail.push(lines);
    count += lines.length;
  }
  let index = items.length - 1;
  let gapBelow: number | undefined;
  for (; index >= 0 && count < need; index--) {
    const item = items[index]!;
    if (item.id === gapAfter) {
      gapBelow = count;
      tail.push([GAP_LINE]);
      count += 1;
    }
    const cached = cachedItemLines(item, width, expanded, raw);
    const lines =
      markedEntryId !== undefined && item.entryId === markedEntryId ? cached.map((line) => (line.text === '' ? line : { ...line, marked: true })) : cached;
    tail.push(lines);
    count += lines.length;
  }
  const flat: Line[] = [];
  for (let i = tail.length - 1; i >= 0; i--) for (const line of tail[i]!) flat.push(line);
  const end = Math.max(0, flat.length - scroll);
  const start = Math.max(0, end - height);
  return { lines: flat.slice(start, end), above: start + (index >= 0 ? 1 : 0), total: flat.length, ...(gapBelow !== undefined ? { gapBelow } : {}) };
}

/**
 * The scroll (lines up from the bottom) that puts the first line of the item
 * from `entryId` near the top of a `height`-line window; undefined when that
 * item is not in memory.
 */
export function scrollToEntry(
  items: readonly ChatItem[],
  streaming: string | undefined,
  width: number,
  height: number,
  expanded: boolean,
  entryId: string,
  footerLines = 0,
  gapAfter?: string,
  raw = false,
): number | undefined {
  let below = footerLines + (streaming ? streamingLines(streaming, width, raw).length : 0);
  for (let index = items.length - 1; index >= 0; index--) {
    const item = items[index]!;
    if (item.id === gapAfter) below += 1;
    below += cachedItemLines(item, width, expanded, raw).length;
    const previous = items[index - 1];
    if (item.entryId === entryId && previous?.entryId !== entryId) return Math.max(0, below - height + 2);
  }
  return undefined;
}
