import { displayText, graphemes, stringWidth } from '../text/width.js';

/** The input line: text with a cursor (a UTF-16 index on a grapheme boundary) and history. */
export interface EditorState {
  text: string;
  cursor: number;
  history: readonly string[];
  /** Index into history while browsing with Up/Down; undefined when editing a draft. */
  historyIndex?: number;
  draft: string;
  /** Inside a bracketed paste: newlines insert instead of submitting. */
  pasting: boolean;
  /** Ctrl+R reverse history search: the query and the history index it matched. */
  search?: { query: string; match?: number };
}

export const HISTORY_LIMIT = 200;

export function emptyEditor(history: readonly string[] = []): EditorState {
  return { text: '', cursor: 0, history, draft: '', pasting: false };
}

export function insertText(state: EditorState, text: string): EditorState {
  const clean = text.replace(/\r\n?/g, '\n').replace(/\t/g, '  ');
  return {
    ...state,
    text: state.text.slice(0, state.cursor) + clean + state.text.slice(state.cursor),
    cursor: state.cursor + clean.length,
    historyIndex: undefined,
  };
}

function prevBoundary(text: string, cursor: number): number {
  const parts = graphemes(text.slice(0, cursor));
  return cursor - (parts.at(-1)?.length ?? 0);
}

function nextBoundary(text: string, cursor: number): number {
  const first = graphemes(text.slice(cursor, cursor + 16))[0];
  return cursor + (first?.length ?? 0);
}

export function backspace(state: EditorState): EditorState {
  if (state.cursor === 0) return state;
  const at = prevBoundary(state.text, state.cursor);
  return { ...state, text: state.text.slice(0, at) + state.text.slice(state.cursor), cursor: at };
}

export function deleteForward(state: EditorState): EditorState {
  const at = nextBoundary(state.text, state.cursor);
  return { ...state, text: state.text.slice(0, state.cursor) + state.text.slice(at) };
}

export function moveLeft(state: EditorState): EditorState {
  return { ...state, cursor: prevBoundary(state.text, state.cursor) };
}

export function moveRight(state: EditorState): EditorState {
  return { ...state, cursor: nextBoundary(state.text, state.cursor) };
}

export function lineStart(state: EditorState): EditorState {
  return { ...state, cursor: state.text.lastIndexOf('\n', state.cursor - 1) + 1 };
}

export function lineEnd(state: EditorState): EditorState {
  const end = state.text.indexOf('\n', state.cursor);
  return { ...state, cursor: end === -1 ? state.text.length : end };
}

/** Start of the word before the cursor (Alt+B, Ctrl+Left). */
export function wordLeft(state: EditorState): EditorState {
  const before = state.text.slice(0, state.cursor).replace(/[^\s]+\s*$|\s+$/u, '');
  return { ...state, cursor: before.length };
}

/** End of the word after the cursor (Alt+F, Ctrl+Right). */
export function wordRight(state: EditorState): EditorState {
  const match = /^\s*[^\s]+/u.exec(state.text.slice(state.cursor));
  return { ...state, cursor: state.cursor + (match ? match[0].length : state.text.length - state.cursor) };
}

/** Ctrl+U: deletes from the start of the line to the cursor. */
export function killToLineStart(state: EditorState): EditorState {
  const start = state.text.lastIndexOf('\n', state.cursor - 1) + 1;
  return { ...state, text: state.text.slice(0, start) + state.text.slice(state.cursor), cursor: start };
}

/** Ctrl+K: deletes from the cursor to the end of the line. */
export function killToLineEnd(state: EditorState): EditorState {
  const end = state.text.indexOf('\n', state.cursor);
  const stop = end === -1 ? state.text.length : end === state.cursor ? end + 1 : end;
  return { ...state, text: state.text.slice(0, state.cursor) + state.text.slice(stop) };
}

/** Moves the cursor to the same column of the line above or below; undefined at the first/last line. */
function verticalMove(state: EditorState, step: -1 | 1): EditorState | undefined {
  const lineStartAt = state.text.lastIndexOf('\n', state.cursor - 1) + 1;
  const column = state.cursor - lineStartAt;
  if (step === -1) {
    if (lineStartAt === 0) return undefined;
    const prevStart = state.text.lastIndexOf('\n', lineStartAt - 2) + 1;
    return { ...state, cursor: Math.min(prevStart + column, lineStartAt - 1) };
  }
  const nextBreak = state.text.indexOf('\n', state.cursor);
  if (nextBreak === -1) return undefined;
  const after = state.text.indexOf('\n', nextBreak + 1);
  const nextEnd = after === -1 ? state.text.length : after;
  return { ...state, cursor: Math.min(nextBreak + 1 + column, nextEnd) };
}

/** Up: the line above inside a multi-line draft, history from the first line. */
export function arrowUp(state: EditorState): EditorState {
  return (state.historyIndex === undefined ? verticalMove(state, -1) : undefined) ?? historyPrev(state);
}

/** Down: the line below inside a multi-line draft, history from the last line. */
export function arrowDown(state: EditorState): EditorState {
  return (state.historyIndex === undefined ? verticalMove(state, 1) : undefined) ?? historyNext(state);
}

/** The newest history entry at or before `from` containing the query. */
function findInHistory(history: readonly string[], query: string, from: number): number | undefined {
  if (query === '') return undefined;
  for (let i = Math.min(from, history.length - 1); i >= 0; i--) if (history[i]!.includes(query)) return i;
  return undefined;
}

/** Ctrl+R: starts a reverse search, or steps to the next older match. */
export function searchHistory(state: EditorState): EditorState {
  if (!state.search) return { ...state, search: { query: '' } };
  const from = state.search.match === undefined ? state.history.length - 1 : state.search.match - 1;
  const match = findInHistory(state.history, state.search.query, from) ?? state.search.match;
  return { ...state, search: { query: state.search.query, ...(match !== undefined ? { match } : {}) } };
}

/** Edits the reverse-search query (text to append, or null for Backspace). */
export function editSearch(state: EditorState, text: string | null): EditorState {
  const query = text === null ? [...(state.search?.query ?? '')].slice(0, -1).join('') : (state.search?.query ?? '') + text;
  const match = findInHistory(state.history, query, state.history.length - 1);
  return { ...state, search: { query, ...(match !== undefined ? { match } : {}) } };
}

/** Leaves reverse search: `accept` puts the match in the editor, otherwise the draft is kept. */
export function endSearch(state: EditorState, accept: boolean): EditorState {
  const match = state.search?.match;
  const next: EditorState = { ...state };
  delete next.search;
  if (!accept || match === undefined) return next;
  const text = state.history[match]!;
  return { ...next, text, cursor: text.length, historyIndex: undefined };
}

export function deleteWordBack(state: EditorState): EditorState {
  const before = state.text.slice(0, state.cursor).replace(/\S+\s*$|\s+$/u, '');
  return { ...state, text: before + state.text.slice(state.cursor), cursor: before.length };
}

/** Up: previous history entry when the cursor is on the first line. */
export function historyPrev(state: EditorState): EditorState {
  if (state.text.slice(0, state.cursor).includes('\n') || state.history.length === 0) return state;
  const index = state.historyIndex === undefined ? state.history.length - 1 : Math.max(0, state.historyIndex - 1);
  const text = state.history[index]!;
  return { ...state, historyIndex: index, draft: state.historyIndex === undefined ? state.text : state.draft, text, cursor: text.length };
}

/** Down: next history entry, and back to the draft past the newest. */
export function historyNext(state: EditorState): EditorState {
  if (state.historyIndex === undefined) return state;
  const index = state.historyIndex + 1;
  if (index >= state.history.length) return { ...state, historyIndex: undefined, text: state.draft, cursor: state.draft.length };
  const text = state.history[index]!;
  return { ...state, historyIndex: index, text, cursor: text.length };
}

/** Empties the editor and records the text in history; returns what was submitted. */
export function submit(state: EditorState): { state: EditorState; text: string } {
  const text = state.text;
  const history = text.trim() === '' || state.history.at(-1) === text ? state.history : [...state.history, text].slice(-HISTORY_LIMIT);
  return { state: { ...emptyEditor(history), pasting: state.pasting }, text };
}

export interface EditorLayout {
  rows: string[];
  cursorRow: number;
  cursorCol: number;
}

let lastLayout: { text: string; cursor: number; width: number; layout: EditorLayout } | undefined;

/**
 * Visual rows of the editor at a width, with the cursor row and column, CJK-aware.
 * A frame asks twice (its height, then its rows) and most frames don't change
 * the draft, so the last answer is kept.
 */
export function layoutEditor(state: EditorState, width: number): EditorLayout {
  const hit = lastLayout;
  if (hit && hit.text === state.text && hit.cursor === state.cursor && hit.width === width) return hit.layout;
  const layout = computeEditorLayout(state, width);
  lastLayout = { text: state.text, cursor: state.cursor, width, layout };
  return layout;
}

function computeEditorLayout(state: EditorState, width: number): EditorLayout {
  const limit = Math.max(1, width);
  const rows: string[] = [];
  let cursorRow = 0;
  let cursorCol = 0;
  let offset = 0;
  for (const line of state.text.split('\n')) {
    let row = '';
    let rowWidth = 0;
    let index = offset;
    const place = (): void => {
      if (index === state.cursor) {
        cursorRow = rows.length;
        cursorCol = rowWidth;
      }
    };
    for (const g of graphemes(line)) {
      place();
      const w = stringWidth(g);
      if (rowWidth + w > limit) {
        rows.push(row);
        row = '';
        rowWidth = 0;
        place();
      }
      row += displayText(g);
      rowWidth += w;
      index += g.length;
    }
    place();
    rows.push(row);
    offset += line.length + 1;
  }
  return { rows, cursorRow, cursorCol };
}
