import { ClawError, formatTokens, type CompactionEntry, type TranscriptEntry } from '../../protocol/index.js';
import { extractIdentifiers, renderMessages } from '../compaction/index.js';
import { assembleContext, effectiveCompaction } from '../context/index.js';
import type { HistoryMessage } from '../turn-types.js';

/** Width of each side of the review, in characters. */
const COLUMN = 58;
/** Rows shown of the side-by-side before it says how much more there is. */
const ROWS = 40;

export interface CompactionReview {
  compaction: CompactionEntry;
  /** Whether it is the one in force (not undone). */
  inForce: boolean;
  summarised: HistoryMessage[];
  /** `kept`: in the summary the model wrote; `appended`: the model dropped it and claw appended it verbatim; `missing`: in neither. */
  identifiers: Array<{ kind: string; value: string; kept: 'kept' | 'appended' | 'missing' }>;
}

/** The heading of the list claw appends when a summariser dropped identifiers (compaction/identifiers.ts). */
const APPENDIX = '## Exact identifiers (kept verbatim from the compacted conversation)';

/** The latest compaction of a transcript (in force or undone), what it summarised and which identifiers its summary kept. */
export function reviewCompaction(entries: readonly TranscriptEntry[]): CompactionReview | undefined {
  let index = -1;
  for (let at = entries.length - 1; at >= 0; at -= 1) {
    if (entries[at]!.type === 'compaction') {
      index = at;
      break;
    }
  }
  if (index < 0) return undefined;
  const compaction = entries[index] as CompactionEntry;
  // What the model saw when it was compacted: the history up to it, the previous summary first.
  const before = assembleContext(entries.slice(0, index)).messages;
  const firstKept = before.findIndex((message) => message.id === compaction.firstKeptEntryId);
  const summarised = firstKept < 0 ? before : before.slice(0, firstKept);
  const at = compaction.summary.lastIndexOf(APPENDIX);
  const written = at < 0 ? compaction.summary : compaction.summary.slice(0, at);
  const identifiers = extractIdentifiers(renderMessages(summarised)).map((identifier) => ({
    ...identifier,
    kept: written.includes(identifier.value) ? ('kept' as const) : compaction.summary.includes(identifier.value) ? ('appended' as const) : ('missing' as const),
  }));
  return { compaction, inForce: effectiveCompaction(entries)?.entry.id === compaction.id, summarised, identifiers };
}

function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      for (let piece = word; piece.length > 0; piece = piece.slice(width)) {
        const part = piece.slice(0, width);
        if (line && line.length + 1 + part.length > width) {
          out.push(line);
          line = part;
        } else line = line ? `${line} ${part}` : part;
        if (piece.length <= width) break;
      }
    }
    out.push(line);
  }
  return out;
}

/** `/compact review`: the summarised turns beside the summary, then every identifier marked kept or missing. */
export function formatReview(review: CompactionReview): string {
  const { compaction, summarised, identifiers } = review;
  const left = wrap(renderMessages(summarised), COLUMN);
  const right = wrap(compaction.summary, COLUMN);
  const rows = Math.max(left.length, right.length);
  const table = [`${'Summarised'.padEnd(COLUMN)} │ Summary`, `${'─'.repeat(COLUMN)}─┼─${'─'.repeat(COLUMN)}`];
  for (let row = 0; row < Math.min(rows, ROWS); row += 1) table.push(`${(left[row] ?? '').padEnd(COLUMN)} │ ${right[row] ?? ''}`);
  if (rows > ROWS) table.push(`… ${rows - ROWS} more rows (/compact review json has all of it)`);
  const dropped = identifiers.filter((identifier) => identifier.kept !== 'kept');
  const mark = { kept: '✓', appended: '✗ dropped by the summariser, appended verbatim', missing: '✗ MISSING' } as const;
  const when = new Date(compaction.timestamp).toISOString().slice(0, 16).replace('T', ' ');
  const state = review.inForce ? 'in force' : 'undone';
  const lines = [
    `Compaction of ${when} UTC (${state}): ${summarised.length} messages → summary, ${formatTokens(compaction.tokensBefore)} → ${formatTokens(compaction.tokensAfter ?? compaction.tokensBefore)} tokens`,
    '```',
    ...table,
    '```',
    `Identifiers: ${identifiers.length - dropped.length} of ${identifiers.length} kept by the summary${dropped.length > 0 ? `, ${dropped.length} not` : ''}`,
    ...identifiers.map((identifier) => `  ${mark[identifier.kept]}  ${identifier.value}  (${identifier.kind})`),
    review.inForce
      ? '/compact undo restores the summarised messages; /compact redo <instructions> summarises them again (e.g. "keep the SQL schema verbatim").'
      : 'It was undone: /compact redo <instructions> compacts again.',
  ];
  return lines.join('\n');
}

export function noCompaction(sessionKey: string): ClawError {
  return new ClawError('not_found', `${sessionKey} has not been compacted yet. /compact summarises older history now; /context shows the window.`);
}
