import { graphemes, stringWidth } from '../text/width.js';

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
}

export const HISTORY_LIMIT = 200;

export function emptyEditor(history: readonly string[] = []): EditorState {
  return { text: '', cursor: 0, history, draft: '', pasting: false };
}

export function insertText(state: EditorState, text: string): EditorState {
  const clean = text.replace(/\r\n?/g, '\n').replace(/\t/g, '  ');
  return { ...state, text: state.text.slice(0, state.cursor) + clean + state.text.slice(state.cursor), cursor: state.cursor + clean.length, historyIndex: undefined };
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

/** Visual rows of the editor at a width, with the cursor row and column, CJK-aware. */
export function layoutEditor(state: EditorState, width: number): { rows: string[]; cursorRow: number; cursorCol: number } {
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
      if (index === state.cursor) { cursorRow = rows.length; cursorCol = rowWidth; }
    };
    for (const g of graphemes(line)) {
      place();
      const w = stringWidth(g);
      if (rowWidth + w > limit) { rows.push(row); row = ''; rowWidth = 0; place(); }
      row += g;
      rowWidth += w;
      index += g.length;
    }
    place();
    rows.push(row);
    offset += line.length + 1;
  }
  return { rows, cursorRow, cursorCol };
}
