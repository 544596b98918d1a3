import { CTRL_C_WINDOW_MS } from '../keymap-constants.js';
import { selectActiveElicitation } from './elicitation.js';
import { selectActiveApproval, selectChat, selectHiddenPanes } from './selectors.js';
import type { PaneId, TuiState } from './state.js';

/** Side panes that draw elapsed times or countdowns. */
const TIMED_PANES: readonly PaneId[] = ['lanes', 'subagents', 'schedule'];

/**
 * Whether anything on screen shows the passing time (a running turn, a
 * countdown, an age, the Ctrl+C window). The app's one-second clock runs
 * only then: an idle screen is not redrawn every second, which also lets the
 * garbage of earlier frames be given back.
 */
export function selectNeedsClock(state: TuiState, now: number): boolean {
  if (selectChat(state).running || state.progress[state.currentKey]) return true;
  if (state.ui.ctrlCAt !== undefined && now - state.ui.ctrlCAt < CTRL_C_WINDOW_MS) return true;
  if (selectActiveApproval(state) || selectActiveElicitation(state)) return true;
  if (state.compactionPreviews[state.currentKey]) return true;
  if (state.ui.search || state.ui.sessionPicker) return true;
  if (state.ui.zoom && TIMED_PANES.includes(state.ui.zoom)) return true;
  const hidden = selectHiddenPanes(state);
  return TIMED_PANES.some((pane) => !hidden.includes(pane));
}
