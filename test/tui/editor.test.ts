import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import { emptyEditor, layoutEditor, type EditorState } from '../../source/tui/editor/editor.js';
import { applyKey } from '../../source/tui/editor/keys.js';

const noKey: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};
const key = (over: Partial<Key> = {}): Key => ({ ...noKey, ...over });

function feed(state: EditorState, chunks: Array<[string, Partial<Key>?]>): { state: EditorState; submitted: string[] } {
  const submitted: string[] = [];
  let current = state;
  for (const [input, over] of chunks) {
    const result = applyKey(current, input, key(over));
    current = result.state;
    if (result.action.type === 'submit') submitted.push(result.action.text);
  }
  return { state: current, submitted };
}

describe('editor input', () => {
  it('submits text and Enter arriving in one chunk exactly once', () => {
    const { state, submitted } = feed(emptyEditor(), [['hello world\r']]);
    expect(submitted).toEqual(['hello world']);
    expect(state.text).toBe('');
    expect(state.history).toEqual(['hello world']);
  });

  it('keeps an unbracketed multi-line paste as one message', () => {
    const { state, submitted } = feed(emptyEditor(), [['line one\rline two\rline three']]);
    expect(submitted).toEqual([]);
    expect(state.text).toBe('line one\nline two\nline three');
    const sent = feed(state, [['', { return: true }]]);
    expect(sent.submitted).toEqual(['line one\nline two\nline three']);
  });

  it('inserts a bracketed paste verbatim, Enter inside it included', () => {
    const { state, submitted } = feed(emptyEditor(), [['\x1b[200~a\rb\r'], ['c\x1b[201~']]);
    expect(submitted).toEqual([]);
    expect(state.text).toBe('a\nb\nc');
    expect(state.pasting).toBe(false);
  });

  it('adds newlines with Alt+Enter and Ctrl+J', () => {
    const { state } = feed(emptyEditor(), [['a'], ['\r', { return: true, meta: true }], ['b'], ['j', { ctrl: true }], ['c']]);
    expect(state.text).toBe('a\nb\nc');
  });

  it('moves over CJK and emoji by grapheme and places the cursor by cells', () => {
    const { state } = feed(emptyEditor(), [['投资👍x'], ['', { leftArrow: true }], ['', { leftArrow: true }], ['', { backspace: true }]]);
    expect(state.text).toBe('投👍x');
    expect(layoutEditor(state, 20).cursorCol).toBe(2);
  });

  it('walks history with Up and Down and restores the draft', () => {
    let { state } = feed(emptyEditor(), [['first\r'], ['second\r'], ['draft']]);
    state = feed(state, [['', { upArrow: true }]]).state;
    expect(state.text).toBe('second');
    state = feed(state, [['', { upArrow: true }]]).state;
    expect(state.text).toBe('first');
    state = feed(state, [
      ['', { downArrow: true }],
      ['', { downArrow: true }],
    ]).state;
    expect(state.text).toBe('draft');
  });

  it('wraps long input rows by cell width', () => {
    const layout = layoutEditor({ ...emptyEditor(), text: '投资目标投资', cursor: 6 }, 5);
    expect(layout.rows).toEqual(['投资', '目标', '投资']);
    expect(layout.cursorRow).toBe(2);
  });
});
