import type { Key } from 'ink';
import type { KeyContext } from './keymap.js';
import { selectSubagents } from './store/selectors.js';
import { buildSubagentTree } from './text/tree.js';
import { setUi } from './ui-actions.js';

function rowsOf(context: KeyContext) {
  const state = context.store.getState();
  return buildSubagentTree(selectSubagents(state), context.store.now());
}

/** Keys of the focused sub-agent pane: ↑↓ pick, Enter opens the child's transcript read-only, c cancels, s steers. */
export function handleSubagentPaneKey(input: string, key: Key, context: KeyContext): boolean {
  const { store, controller } = context;
  const rows = rowsOf(context);
  const cursor = Math.min(store.getState().ui.subagentCursor ?? 0, Math.max(0, rows.length - 1));
  if (key.upArrow || key.downArrow) {
    const next = Math.min(rows.length - 1, Math.max(0, cursor + (key.upArrow ? -1 : 1)));
    store.update((s) => setUi(s, { subagentCursor: next }));
    return true;
  }
  const row = rows[cursor];
  if (!row) return false;
  if (key.return) {
    const returnTo = store.getState().ui.viewingChild?.returnTo ?? store.getState().currentKey;
    store.update((s) => setUi(s, { focus: 'chat', viewingChild: { key: row.key, returnTo }, steering: undefined }));
    void controller.switchSession(row.key);
    return true;
  }
  if (input === 'c' && row.runId) {
    const runId = row.runId;
    void controller
      .call('subagents.cancel', { id: runId })
      .then((result) => controller.notice(result.cancelled ? `Cancelling sub-agent "${row.label}".` : `Sub-agent "${row.label}" has already finished.`))
      .catch((error: unknown) => controller.error(error));
    return true;
  }
  if (input === 's' && row.runId) {
    store.update((s) => setUi(s, { focus: 'chat', steering: { runId: row.runId!, label: row.label } }));
    return true;
  }
  return false;
}

/** Esc in a child's read-only transcript goes back to the parent; Esc while steering stops steering. */
export function leaveSubagentMode(context: KeyContext): boolean {
  const { store, controller } = context;
  const { viewingChild, steering } = store.getState().ui;
  if (steering) {
    store.update((s) => setUi(s, { steering: undefined }));
    return true;
  }
  if (!viewingChild) return false;
  store.update((s) => setUi(s, { viewingChild: undefined }));
  void controller.switchSession(viewingChild.returnTo);
  return true;
}

/** Submitted text while steering goes to the child; a read-only transcript takes none. */
export function submitToSubagent(text: string, context: KeyContext): boolean {
  const { store, controller } = context;
  const { viewingChild, steering } = store.getState().ui;
  if (steering) {
    store.update((s) => setUi(s, { steering: undefined }));
    void controller
      .call('subagents.steer', { id: steering.runId, message: text })
      .then((result) =>
        controller.notice(
          result.status === 'steered' ? `Sub-agent "${steering.label}" reads that at its next step.` : `Sub-agent "${steering.label}" runs again with that.`,
        ),
      )
      .catch((error: unknown) => controller.error(error));
    return true;
  }
  if (viewingChild && !text.startsWith('/')) {
    controller.notice('This sub-agent transcript is read-only: Esc goes back to the parent; steer the child with s in the sub-agent pane.');
    return true;
  }
  return false;
}
