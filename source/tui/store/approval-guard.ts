import { selectActiveApproval } from './selectors.js';
import type { TuiState } from './state.js';

/**
 * A prompt answers only a deliberate key: one pressed at least this long after
 * the prompt appeared and after the previous key. Anything quicker was typed
 * for the draft (an `s` of "something" must not approve a command).
 */
export const APPROVAL_GUARD_MS = 500;

/** Records when the active approval appeared; run after every state change. */
export function trackApprovalShown(state: TuiState, now: number): TuiState {
  const active = selectActiveApproval(state);
  const shown = state.ui.approvalShown;
  if (!active) return shown ? { ...state, ui: { ...state.ui, approvalShown: undefined, guardedKeys: 0 } } : state;
  if (shown?.id === active.id) return state;
  return { ...state, ui: { ...state.ui, approvalShown: { id: active.id, at: now }, guardedKeys: 0 } };
}

/** Whether a key arriving at `now` may answer the prompt, given the state before it. */
export function isDeliberateKey(state: TuiState, input: string, now: number): boolean {
  const shownAt = state.ui.approvalShown?.at ?? now;
  if (now - shownAt < APPROVAL_GUARD_MS) return false;
  if (state.ui.lastKeyAt !== undefined && now - state.ui.lastKeyAt < APPROVAL_GUARD_MS) return false;
  // Several characters in one chunk are a paste or fast typing, never a decision.
  return [...input].length <= 1;
}
