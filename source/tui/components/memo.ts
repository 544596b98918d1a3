import type { TuiState, UiState } from '../store/state.js';

/**
 * What a keystroke changes and no pane but the input line and its popup
 * draws: the draft (except whether history search is open, which the footer
 * names), when the key came, and the completion row.
 */
const DRAFT_ONLY: ReadonlySet<keyof UiState> = new Set<keyof UiState>(['editor', 'lastKeyAt', 'completionIndex']);

/** Whether two states differ only in the draft being typed. */
export function sameButDraft(a: TuiState, b: TuiState): boolean {
  if (a === b) return true;
  for (const key of Object.keys(a) as (keyof TuiState)[]) {
    if (key !== 'ui' && a[key] !== b[key]) return false;
  }
  if (Object.keys(a).length !== Object.keys(b).length) return false;
  if (a.ui === b.ui) return true;
  if (a.ui.editor.search !== b.ui.editor.search) return false;
  const keys = new Set([...Object.keys(a.ui), ...Object.keys(b.ui)] as (keyof UiState)[]);
  for (const key of keys) {
    if (!DRAFT_ONLY.has(key) && a.ui[key] !== b.ui[key]) return false;
  }
  return true;
}

/**
 * React.memo's comparison for a pane drawn from the whole state: it re-renders
 * when any other prop changes or the state changes beyond the draft, so typing
 * redraws the input line and not the screen around it.
 */
export function samePaneProps<P extends { state: TuiState }>(prev: Readonly<P>, next: Readonly<P>): boolean {
  const keys = Object.keys(next) as (keyof P)[];
  if (Object.keys(prev).length !== keys.length) return false;
  for (const key of keys) {
    if (key === 'state' ? !sameButDraft(prev.state, next.state) : !Object.is(prev[key], next[key])) return false;
  }
  return true;
}
