import type { Key } from 'ink';
import { completions, runSlash, type Completion } from './commands/registry.js';
import { setModel } from './commands/model.js';
import type { CommandContext } from './commands/types.js';
import { emptyEditor } from './editor/editor.js';
import { applyKey, isForwardDelete } from './editor/keys.js';
import type { Layout } from './layout.js';
import { nextApprovalMode, selectActiveApproval, selectChat, selectFooter, selectSessionKeys } from './store/selectors.js';
import type { TuiState } from './store/state.js';
import { isDeliberateKey } from './store/approval-guard.js';
import type { PaneId } from './store/state.js';
import { handleSearchKey, openSearch } from './search-keys.js';
import { handleSessionPickerKey } from './session-picker-keys.js';
import { openSetup } from './setup/setup-flow.js';
import { handleSetupKey } from './setup/setup-keys.js';
import { handleSubagentPaneKey, leaveSubagentMode, submitToSubagent } from './subagent-keys.js';
import { handleElicitationKey } from './elicitation-keys.js';
import { selectActiveElicitation } from './store/elicitation.js';
import { pickerChoices } from './store/choice-picker.js';
import { cycleFocus, hidePane, scrollChat, setUi, showAllPanes, toggleZoom, togglePane } from './ui-actions.js';

import { CTRL_C_WINDOW_MS } from './keymap-constants.js';

export { CTRL_C_WINDOW_MS };

export interface KeyContext extends CommandContext {
  layout: Layout;
}

export function currentCompletions(state: TuiState, context: CommandContext): Completion[] {
  return state.ui.focus === 'chat' ? completions(state.ui.editor.text, context) : [];
}

/** Alt+letter toggles a side pane (hidden ↔ pinned open). */
const PANE_KEYS: Readonly<Record<string, PaneId>> = { s: 'sessions', l: 'lanes', c: 'context', a: 'subagents', j: 'schedule' };

/**
 * Routes one key to whoever holds the keyboard, in order: Ctrl+C, scrolling,
 * the approval prompt, search, pickers, focus keys, the focused side pane, the
 * editor. `raw` is the byte sequence the terminal sent, which tells Backspace
 * (0x7f) from Delete (ESC[3~) where Ink reports both as `delete`.
 */
export function handleKey(input: string, key: Key, context: KeyContext, raw?: string): void {
  const { store, controller, layout } = context;
  const state = store.getState();
  const update = store.update.bind(store);
  const now = store.now();
  update((s) => setUi(s, { lastKeyAt: now }));

  if (key.ctrl && input === 'c') {
    if (state.ui.ctrlCAt !== undefined && now - state.ui.ctrlCAt < CTRL_C_WINDOW_MS) return context.exit();
    update((s) => setUi(s, { ctrlCAt: now, editor: emptyEditor(s.ui.editor.history), completionIndex: 0, search: undefined, sessionPicker: undefined }));
    return;
  }
  if (state.setup) return handleSetupKey(input, key, context, raw);
  const page = Math.max(1, layout.bodyHeight - 2);
  if (key.pageUp || key.pageDown) {
    // The chat pane fetches older (or newer) pages as the view nears the end of what is in memory.
    update((s) => scrollChat(s, key.pageUp ? page : -page));
    return;
  }
  if (key.ctrl && input === 'o') return update((s) => setUi(s, { toolsExpanded: !s.ui.toolsExpanded }));
  if (key.meta && !key.ctrl && input === 'm') return update((s) => setUi(s, { rawMarkdown: !s.ui.rawMarkdown }));
  if (key.ctrl && input === 'l') return update(showAllPanes);
  const paneKey = key.meta && !key.ctrl ? PANE_KEYS[input] : undefined;
  if (paneKey) return update((s) => togglePane(s, paneKey));

  const approval = selectActiveApproval(state);
  if (approval) {
    if (key.escape) {
      update((s) => setUi(s, s.ui.confirmAlways === approval.id ? { confirmAlways: undefined } : { dismissed: [...s.ui.dismissed, approval.id] }));
      return;
    }
    if (!isDeliberateKey(state, input, now)) {
      // Typed for the draft, not for the prompt: it goes where the user meant it.
      update((s) => setUi(s, { guardedKeys: s.ui.guardedKeys + 1 }));
      return editorKey(input, key, context, raw, []);
    }
    if (state.ui.confirmAlways === approval.id) {
      if (input === 'y' || key.return) void controller.resolveApproval(approval, 'always');
      if (input === 'y' || key.return || input === 'n') update((s) => setUi(s, { confirmAlways: undefined }));
      return;
    }
    if (input === 'y') void controller.resolveApproval(approval, 'once');
    else if (input === 's') void controller.resolveApproval(approval, 'session');
    else if (input === 'n') void controller.resolveApproval(approval, 'deny');
    else if (input === 'a') update((s) => setUi(s, { confirmAlways: approval.id }));
    return;
  }

  const elicitation = selectActiveElicitation(state);
  if (elicitation) return handleElicitationKey(input, key, context, raw, elicitation, state.ui.lastKeyAt, () => editorKey(input, key, context, raw, []));

  // An automatic compaction's preview answers c / p / r while the input line is empty (typing goes to the draft).
  const preview = state.compactionPreviews[state.currentKey];
  if (preview && state.ui.editor.text === '' && !key.ctrl && !key.meta && !state.ui.search && ['c', 'p', 'r'].includes(input)) {
    if (input === 'r') return update((s) => setUi(s, { previewDetails: !s.ui.previewDetails }));
    void controller.decideCompaction(preview.id, input === 'c' ? 'now' : 'postpone');
    return;
  }

  if (state.ui.search) return handleSearchKey(input, key, context, raw);
  if (state.ui.sessionPicker) return handleSessionPickerKey(input, key, context, raw);

  const picker = state.ui.picker;
  if (picker) {
    const choices = pickerChoices(picker);
    if (key.escape) return update((s) => setUi(s, { picker: undefined }));
    if (key.upArrow || key.downArrow) {
      if (choices.length === 0) return;
      const index = (picker.index + (key.upArrow ? -1 : 1) + choices.length) % choices.length;
      return update((s) => setUi(s, { picker: { ...picker, index } }));
    }
    if (key.return) {
      update((s) => setUi(s, { picker: undefined }));
      const choice = choices[Math.min(picker.index, choices.length - 1)]?.value;
      if (choice && picker.command === 'model') void setModel(choice, context).catch((error: unknown) => controller.error(error));
      return;
    }
    // Typing narrows the list, as in /sessions.
    if (key.backspace || (key.delete && !isForwardDelete(raw)))
      return update((s) => setUi(s, { picker: { ...picker, filter: [...(picker.filter ?? '')].slice(0, -1).join(''), index: 0 } }));
    if (key.ctrl || key.meta || key.tab || input === '' || /[\r\n]/.test(input)) return;
    return update((s) => setUi(s, { picker: { ...picker, filter: `${picker.filter ?? ''}${input}`, index: 0 } }));
  }

  if (key.ctrl && input === 'f') return openSearch(context);

  const popup = currentCompletions(state, context);
  if (key.tab && popup.length > 0 && !key.shift) {
    const chosen = popup[Math.min(state.ui.completionIndex, popup.length - 1)]!;
    return update((s) => setUi(s, { editor: { ...s.ui.editor, text: chosen.value, cursor: chosen.value.length }, completionIndex: 0 }));
  }
  // Shift+Tab: the session's approval mode, ask → auto-edit → plan, through the gateway's /mode.
  if (key.tab && key.shift) return void runSlash(`/mode ${nextApprovalMode(selectFooter(state).mode)}`, context);
  if (key.tab) return update((s) => cycleFocus(s, layout, 1));

  if (state.ui.focus !== 'chat') {
    if (handlePaneKey(input, key, context)) return;
    // Anything the pane does not use is typing: it goes to the input, which takes focus.
    update((s) => setUi(s, { focus: 'chat', zoom: s.ui.zoom === s.ui.focus ? undefined : s.ui.zoom }));
    return editorKey(input, key, context, raw, popup);
  }

  if (popup.length > 0 && (key.upArrow || key.downArrow)) {
    const index = (state.ui.completionIndex + (key.upArrow ? -1 : 1) + popup.length) % popup.length;
    return update((s) => setUi(s, { completionIndex: index }));
  }
  if (key.escape && !state.ui.editor.search) {
    if (leaveSubagentMode(context)) return;
    if (selectChat(state).running) void controller.abort();
    return;
  }
  if ((key.home || key.end) && state.ui.editor.text === '') {
    return update((s) => setUi(s, { scroll: key.home ? Number.MAX_SAFE_INTEGER / 2 : 0 }));
  }
  if (
    (key.ctrl && input === 'g' && !state.ui.editor.search) ||
    (key.ctrl && input === 'e' && state.ui.ctrlXAt !== undefined && now - state.ui.ctrlXAt < CTRL_X_WINDOW_MS)
  ) {
    update((s) => setUi(s, { ctrlXAt: undefined }));
    return void context.editExternally?.();
  }
  if (key.ctrl && input === 'x') return update((s) => setUi(s, { ctrlXAt: now }));
  if (input === '?' && state.ui.editor.text === '') return void runSlash('/help keys', context);
  editorKey(input, key, context, raw, popup);
}

/**
 * A wheel turn (alternate scroll mode, see wheel.ts): scrolls the chat and pages
 * older history at the top. False while a prompt or a list is open, which
 * takes the turn as arrow keys.
 */
export function handleWheel(lines: number, context: KeyContext): boolean {
  const { store } = context;
  const state = store.getState();
  const listOpen = state.ui.search || state.ui.sessionPicker || state.ui.picker || currentCompletions(state, context).length > 0;
  if (selectActiveApproval(state) || listOpen || state.ui.focus !== 'chat') return false;
  store.update((s) => scrollChat(s, lines));
  return true;
}

/** Ctrl+X then Ctrl+E within this window opens $EDITOR, as in bash. */
const CTRL_X_WINDOW_MS = 1500;

function editorKey(input: string, key: Key, context: KeyContext, raw: string | undefined, popup: Completion[]): void {
  const { state: editor, action } = applyKey(context.store.getState().ui.editor, input, key, raw);
  context.store.update((s) =>
    setUi(s, { editor, completionIndex: action.type === 'submit' ? 0 : s.ui.completionIndex, scroll: action.type === 'submit' ? 0 : s.ui.scroll }),
  );
  if (action.type === 'submit') submitText(action.text, popup, context);
}

function submitText(text: string, popup: Completion[], context: KeyContext): void {
  const trimmed = text.trim();
  // The first screen offers setup on Enter while there is no model to talk to.
  if (trimmed === '') {
    if (context.store.getState().modelMissing) void openSetup(context);
    return;
  }
  if (submitToSubagent(trimmed, context)) return;
  if (trimmed.startsWith('/')) {
    // Enter on a bare partial name runs the highlighted completion, like Tab then Enter.
    const typedName = !/\s/.test(trimmed);
    const chosen =
      typedName && popup.length > 0 && !popup.some((c) => c.value.trim() === trimmed)
        ? popup[Math.min(context.store.getState().ui.completionIndex, popup.length - 1)]!.value.trim()
        : trimmed;
    void runSlash(chosen, context);
    return;
  }
  // `!cmd`: the owner's shell, through the gateway's /sh (sandbox and approvals as for the agent).
  if (trimmed.startsWith('!') && trimmed.length > 1) {
    void runSlash(`/sh ${trimmed.slice(1).trim()}`, context);
    return;
  }
  void context.controller.send(text);
}

/** Keys a focused side pane uses; false when the key is not one of them. */
function handlePaneKey(input: string, key: Key, context: KeyContext): boolean {
  const { store, controller } = context;
  const state = store.getState();
  const focus = state.ui.focus;
  if (key.escape) {
    store.update((s) => setUi(s, { focus: 'chat', zoom: undefined }));
    return true;
  }
  if (input === 'z') {
    store.update((s) => toggleZoom(s, focus));
    return true;
  }
  if (input === 'h') {
    store.update((s) => hidePane(s, focus));
    return true;
  }
  if (focus === 'subagents') return handleSubagentPaneKey(input, key, context);
  if (focus !== 'sessions') return false;
  const keys = selectSessionKeys(state);
  if (key.upArrow || key.downArrow) {
    const cursor = Math.min(keys.length - 1, Math.max(0, state.ui.sessionCursor + (key.upArrow ? -1 : 1)));
    store.update((s) => setUi(s, { sessionCursor: cursor }));
    return true;
  }
  if (key.return) {
    const target = keys[state.ui.sessionCursor];
    if (target) {
      store.update((s) => setUi(s, { focus: 'chat' }));
      void controller.switchSession(target);
    }
    return true;
  }
  return false;
}
