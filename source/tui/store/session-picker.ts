import { shortSessionKey } from '../text/format.js';
import { selectChat } from './selectors.js';
import type { TuiState } from './state.js';

export interface PickerRow {
  key: string;
  label: string;
  updatedAt: number;
  /** The first user line of the session when it is loaded, else its label. */
  firstLine: string;
  current: boolean;
  unread: number;
}

/**
 * A fuzzy match: every query character appears in order. Lower is better:
 * the gaps between matched characters, with a bonus for a contiguous run.
 */
export function fuzzyScore(text: string, query: string): number | undefined {
  if (query === '') return 0;
  const haystack = text.toLowerCase();
  const needle = query.toLowerCase();
  if (haystack.includes(needle)) return haystack.indexOf(needle) / 1000;
  let at = -1;
  let gaps = 0;
  for (const ch of needle) {
    const next = haystack.indexOf(ch, at + 1);
    if (next === -1) return undefined;
    if (at !== -1) gaps += next - at - 1;
    at = next;
  }
  return 1 + gaps;
}

/** Sessions for the picker, filtered and ranked by the fuzzy query, most recent first on ties. */
export function pickerSessions(state: TuiState, filter: string): PickerRow[] {
  const rows = Object.values(state.sessions).map((s) => {
    const first = selectChat(state, s.key).items.find((i) => i.kind === 'user');
    return {
      key: s.key,
      label: s.label ?? shortSessionKey(s.key),
      updatedAt: s.updatedAt,
      firstLine: first?.kind === 'user' ? first.text.split('\n')[0]! : '',
      current: s.key === state.currentKey,
      unread: state.unread[s.key] ?? 0,
    };
  });
  return rows
    .map((row) => ({ row, score: fuzzyScore(`${row.label} ${row.key} ${row.firstLine}`, filter) }))
    .filter((x): x is { row: PickerRow; score: number } => x.score !== undefined)
    .sort((a, b) => a.score - b.score || b.row.updatedAt - a.row.updatedAt)
    .map((x) => x.row);
}
