import type { Key } from 'ink';
import * as ed from './editor.js';

export type EditorAction = { type: 'submit'; text: string } | { type: 'none' };

const PASTE_START = '[200~';
const PASTE_END = '[201~';

/**
 * Applies one input chunk to the editor. Chunks can carry several keys at once
 * (paste, a slow link, `tmux send-keys 'abc' Enter`): text before a CR is
 * inserted and a trailing CR submits once; CRs inside a chunk, and anything
 * inside a bracketed paste, become newlines so a pasted block stays one message.
 */
export function applyKey(state: ed.EditorState, input: string, key: Key): { state: ed.EditorState; action: EditorAction } {
  const none = (next: ed.EditorState) => ({ state: next, action: { type: 'none' } as const });
  if (input.includes(PASTE_START) || input.includes(PASTE_END) || state.pasting) return none(applyPaste(state, input));
  if (key.return) {
    if (key.meta || key.shift) return none(ed.insertText(state, '\n'));
    const { state: next, text } = ed.submit(state);
    return { state: next, action: { type: 'submit', text } };
  }
  if (key.ctrl && input === 'j') return none(ed.insertText(state, '\n'));
  if (key.backspace || (key.ctrl && input === 'h')) return none(ed.backspace(state));
  if (key.delete) return none(key.meta ? ed.deleteWordBack(state) : ed.deleteForward(state));
  if (key.leftArrow) return none(ed.moveLeft(state));
  if (key.rightArrow) return none(ed.moveRight(state));
  if (key.upArrow) return none(ed.historyPrev(state));
  if (key.downArrow) return none(ed.historyNext(state));
  if (key.home || (key.ctrl && input === 'a')) return none(ed.lineStart(state));
  if (key.end || (key.ctrl && input === 'e')) return none(ed.lineEnd(state));
  if (key.ctrl && input === 'w') return none(ed.deleteWordBack(state));
  if (key.ctrl && input === 'u') return none({ ...state, text: state.text.slice(state.cursor), cursor: 0 });
  if (key.ctrl || key.escape || key.tab || input === '') return none(state);
  return applyChunk(state, input);
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
