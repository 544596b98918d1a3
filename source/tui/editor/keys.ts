import type { Key } from 'ink';
import * as ed from './editor.js';

export type EditorAction = { type: 'submit'; text: string } | { type: 'none' };

const PASTE_START = '[200~';
const PASTE_END = '[201~';

/**
 * Ink reports both 0x7f (what xterm, tmux and iTerm send for Backspace) and
 * ESC[3~ (the Delete key) as `key.delete`; only the raw sequence tells them
 * apart. Without it, Backspace is the likelier key.
 */
export function isForwardDelete(raw: string | undefined): boolean {
  return raw !== undefined && /^\x1b?\x1b\[3[~;$^]/.test(raw);
}

/**
 * Applies one input chunk to the editor. Chunks can carry several keys at once
 * (paste, a slow link, `tmux send-keys 'abc' Enter`): text before a CR is
 * inserted and a trailing CR submits once; CRs inside a chunk, and anything
 * inside a bracketed paste, become newlines so a pasted block stays one message.
 */
export function applyKey(state: ed.EditorState, input: string, key: Key, raw?: string): { state: ed.EditorState; action: EditorAction } {
  const none = (next: ed.EditorState) => ({ state: next, action: { type: 'none' } as const });
  if (input.includes(PASTE_START) || input.includes(PASTE_END) || state.pasting) return none(applyPaste(state, input));
  if (state.search) return none(applySearchKey(state, input, key, raw));
  if (key.ctrl && input === 'r') return none(ed.searchHistory(state));
  if (key.return) {
    if (key.meta || key.shift) return none(ed.insertText(state, '\n'));
    const { state: next, text } = ed.submit(state);
    return { state: next, action: { type: 'submit', text } };
  }
  if (key.ctrl && input === 'j') return none(ed.insertText(state, '\n'));
  if (key.backspace || (key.ctrl && input === 'h')) return none(key.meta ? ed.deleteWordBack(state) : ed.backspace(state));
  if (key.delete) {
    if (isForwardDelete(raw)) return none(ed.deleteForward(state));
    return none(key.meta ? ed.deleteWordBack(state) : ed.backspace(state));
  }
  if (key.leftArrow) return none(key.ctrl || key.meta ? ed.wordLeft(state) : ed.moveLeft(state));
  if (key.rightArrow) return none(key.ctrl || key.meta ? ed.wordRight(state) : ed.moveRight(state));
  if (key.meta && input === 'b') return none(ed.wordLeft(state));
  if (key.meta && input === 'f') return none(ed.wordRight(state));
  if (key.upArrow) return none(ed.arrowUp(state));
  if (key.downArrow) return none(ed.arrowDown(state));
  if (key.home || (key.ctrl && input === 'a')) return none(ed.lineStart(state));
  if (key.end || (key.ctrl && input === 'e')) return none(ed.lineEnd(state));
  if (key.ctrl && input === 'w') return none(ed.deleteWordBack(state));
  if (key.ctrl && input === 'u') return none(ed.killToLineStart(state));
  if (key.ctrl && input === 'k') return none(ed.killToLineEnd(state));
  if (key.ctrl || key.meta || key.escape || key.tab || input === '') return none(state);
  return applyChunk(state, input);
}

/** Keys while Ctrl+R search is open: typing refines, Ctrl+R steps older, Enter/→ accept, Esc/Ctrl+G cancel. */
function applySearchKey(state: ed.EditorState, input: string, key: Key, raw: string | undefined): ed.EditorState {
  if (key.ctrl && input === 'r') return ed.searchHistory(state);
  if (key.escape || (key.ctrl && (input === 'g' || input === 'c'))) return ed.endSearch(state, false);
  if (key.return || key.rightArrow || key.leftArrow || key.tab) return ed.endSearch(state, true);
  if (key.backspace || (key.delete && !isForwardDelete(raw))) return ed.editSearch(state, null);
  if (key.ctrl || key.meta || input === '' || /[\r\n]/.test(input)) return state;
  return ed.editSearch(state, input);
}

function applyChunk(state: ed.EditorState, input: string): { state: ed.EditorState; action: EditorAction } {
  const normalized = input.replace(/\r\n/g, '\r').replace(/\n/g, '\r');
  if (!normalized.includes('\r')) return { state: ed.insertText(state, input), action: { type: 'none' } };
  const submits = normalized.endsWith('\r');
  const body = (submits ? normalized.slice(0, -1) : normalized).replace(/\r/g, '\n');
  const withText = ed.insertText(state, body);
  if (!submits) return { state: withText, action: { type: 'none' } };
  const { state: next, text } = ed.submit(withText);
  return { state: next, action: { type: 'submit', text } };
}

function applyPaste(state: ed.EditorState, input: string): ed.EditorState {
  let next = state;
  let rest = input;
  while (rest !== '') {
    if (next.pasting) {
      const end = rest.indexOf(PASTE_END);
      const text = end === -1 ? rest : rest.slice(0, end);
      next = ed.insertText(next, text.replace(/\x1b$/, ''));
      if (end === -1) return next;
      next = { ...next, pasting: false };
      rest = rest.slice(end + PASTE_END.length);
    } else {
      const start = rest.indexOf(PASTE_START);
      const before = start === -1 ? rest : rest.slice(0, start);
      if (before !== '') next = ed.insertText(next, before.replace(/\x1b$/, ''));
      if (start === -1) return next;
      next = { ...next, pasting: true };
      rest = rest.slice(start + PASTE_START.length);
    }
  }
  return next;
}
