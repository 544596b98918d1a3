import type { Key } from 'ink';
import { completions, runSlash, type Completion } from './commands/registry.js';
import { setModel } from './commands/model.js';
import type { CommandContext } from './commands/types.js';
import { emptyEditor } from './editor/editor.js';
import { applyKey } from './editor/keys.js';
import type { Layout } from './layout.js';
import { selectActiveApproval, selectChat, selectSessionKeys } from './store/selectors.js';
import type { TuiState } from './store/state.js';
import { cycleFocus, hidePane, scrollChat, setUi, showAllPanes, toggleZoom } from './ui-actions.js';

/** A second Ctrl+C within this window exits. */
export const CTRL_C_WINDOW_MS = 2000;

export interface KeyContext extends CommandContext {
  layout: Layout;
}

export function currentCompletions(state: TuiState, context: CommandContext): Completion[] {
  return state.ui.focus === 'chat' ? completions(state.ui.editor.text, context) : [];
}

/**
 * Routes one key to whoever holds the keyboard, in order: Ctrl+C, scrolling,
 * the approval prompt, a picker, focus keys, the focused side pane, the editor.
 */
export function handleKey(input: string, key: Key, context: KeyContext): void {
  const { store, controller, layout } = context;
  const state = store.getState();
  const update = store.update.bind(store);

  if (key.ctrl && input === 'c') {
    const now = store.now();
    if (state.ui.ctrlCAt !== undefined && now - state.ui.ctrlCAt < CTRL_C_WINDOW_MS) return context.exit();
    update((s) => setUi(s, { ctrlCAt: now, editor: emptyEditor(s.ui.editor.history), completionIndex: 0 }));
    return;
  }
  const page = Math.max(1, layout.bodyHeight - 2);
  if (key.pageUp || key.pageDown) {
    update((s) => scrollChat(s, key.pageUp ? page : -page));
    if (key.pageUp && selectChat(state).hasMore) void controller.loadHistory(state.currentKey, true);
    return;
  }
  if (key.ctrl && input === 'o') return update((s) => setUi(s, { toolsExpanded: !s.ui.toolsExpanded }));
  if (key.ctrl && input === 'l') return update(showAllPanes);

  const approval = selectActiveApproval(state);
  if (approval) {
    if (state.ui.confirmAlways === approval.id) {
      if (input === 'y' || key.return) void controller.resolveApproval(approval, 'always');
      if (input === 'y' || key.return || input === 'n' || key.escape) update((s) => setUi(s, { confirmAlways: undefined }));
      return;
    }
    if (input === 'y') void controller.resolveApproval(approval, 'once');
    else if (input === 's') void controller.resolveApproval(approval, 'session');
    else if (input === 'n') void controller.resolveApproval(approval, 'deny');
    else if (input === 'a') update((s) => setUi(s, { confirmAlways: approval.id }));
    else if (key.escape) update((s) => setUi(s, { dismissed: [...s.ui.dismissed, approval.id] }));
    return;
  }

  const picker = state.ui.picker;
  if (picker) {
    if (key.escape) return update((s) => setUi(s, { picker: undefined }));
    if (key.upArrow || key.downArrow) {
      const index = (picker.index + (key.upArrow ? -1 : 1) + picker.options.length) % picker.options.length;
      return update((s) => setUi(s, { picker: { ...picker, index } }));
    }
    if (key.return) {
      update((s) => setUi(s, { picker: undefined }));
      const choice = picker.options[picker.index];
      if (choice && picker.command === 'model') void setModel(choice, context).catch((error: unknown) => controller.error(error));
    }
    return;
  }

  const popup = currentCompletions(state, context);
  if (key.tab && popup.length > 0 && !key.shift) {
    const chosen = popup[Math.min(state.ui.completionIndex, popup.length - 1)]!;
    return update((s) => setUi(s, { editor: { ...s.ui.editor, text: chosen.value, cursor: chosen.value.length }, completionIndex: 0 }));
  }
  if (key.tab) return update((s) => cycleFocus(s, layout, key.shift ? -1 : 1));

  if (state.ui.focus !== 'chat') return handlePaneKey(input, key, context);

  if (popup.length > 0 && (key.upArrow || key.downArrow)) {
    const index = (state.ui.completionIndex + (key.upArrow ? -1 : 1) + popup.length) % popup.length;
    return update((s) => setUi(s, { completionIndex: index }));
  }
  if (key.escape) {
    if (selectChat(state).running) void controller.abort();
    return;
  }
  if ((key.home || key.end) && state.ui.editor.text === '') {
    return update((s) => setUi(s, { scroll: key.home ? Number.MAX_SAFE_INTEGER / 2 : 0 }));
  }
  const { state: editor, action } = applyKey(state.ui.editor, input, key);
  update((s) => setUi(s, { editor, completionIndex: action.type === 'submit' ? 0 : s.ui.completionIndex, scroll: action.type === 'submit' ? 0 : s.ui.scroll }));
  if (action.type === 'submit') submitText(action.text, popup, context);
}

function submitText(text: string, popup: Completion[], context: KeyContext): void {
  const trimmed = text.trim();
  if (trimmed === '') return;
  if (trimmed.startsWith('/')) {
    // Enter on a bare partial name runs the highlighted completion, like Tab then Enter.
    const typedName = !/\s/.test(trimmed);
    const chosen = typedName && popup.length > 0 && !popup.some((c) => c.value.trim() === trimmed) ? popup[Math.min(context.store.getState().ui.completionIndex, popup.length - 1)]!.value.trim() : trimmed;
    void runSlash(chosen, context);
    return;
  }
  void context.controller.send(text);
}

function handlePaneKey(input: string, key: Key, context: KeyContext): void {
  const { store, controller } = context;
  const state = store.getState();
  const focus = state.ui.focus;
  if (key.escape) return store.update((s) => setUi(s, { focus: 'chat', zoom: undefined }));
  if (input === 'z') return store.update((s) => toggleZoom(s, focus));
  if (input === 'h') return store.update((s) => hidePane(s, focus));
  if (focus !== 'sessions') return;
  const keys = selectSessionKeys(state);
  if (key.upArrow || key.downArrow) {
    const cursor = Math.min(keys.length - 1, Math.max(0, state.ui.sessionCursor + (key.upArrow ? -1 : 1)));
    return store.update((s) => setUi(s, { sessionCursor: cursor }));
  }
  if (key.return) {
    const target = keys[state.ui.sessionCursor];
    if (target) {
      store.update((s) => setUi(s, { focus: 'chat' }));
      void controller.switchSession(target);
    }
  }
}
