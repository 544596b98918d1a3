import type { Layout } from './layout.js';
import { focusOrder } from './layout.js';
import { selectHiddenPanes } from './store/selectors.js';
import { SIDE_PANES, type PaneId, type TuiState, type UiState } from './store/state.js';

/** Pure UI transitions; the keymap composes them. */
export function setUi(state: TuiState, change: Partial<UiState>): TuiState {
  return { ...state, ui: { ...state.ui, ...change } };
}

export function cycleFocus(state: TuiState, layout: Layout, step: 1 | -1): TuiState {
  const order = focusOrder(layout);
  const at = order.indexOf(state.ui.focus);
  const next = order[(at + step + order.length) % order.length] ?? 'chat';
  return setUi(state, { focus: next });
}

export function toggleZoom(state: TuiState, pane: PaneId): TuiState {
  return setUi(state, { zoom: state.ui.zoom === pane ? undefined : pane });
}

export function hidePane(state: TuiState, pane: PaneId): TuiState {
  if (pane === 'chat') return state;
  return setUi(state, {
    hidden: [...state.ui.hidden.filter((p) => p !== pane), pane],
    pinned: state.ui.pinned.filter((p) => p !== pane),
    focus: 'chat',
    zoom: state.ui.zoom === pane ? undefined : state.ui.zoom,
  });
}

/** Keeps a side pane on screen even while it is empty. */
export function pinPane(state: TuiState, pane: PaneId): TuiState {
  if (pane === 'chat') return state;
  return setUi(state, { hidden: state.ui.hidden.filter((p) => p !== pane), pinned: [...state.ui.pinned.filter((p) => p !== pane), pane] });
}

/** Alt+S/L/C/A: a shown pane is hidden, a hidden one pinned open. */
export function togglePane(state: TuiState, pane: PaneId): TuiState {
  return selectHiddenPanes(state).includes(pane) ? pinPane(state, pane) : hidePane(state, pane);
}

/** Ctrl+L: every side pane on screen, or back to showing only those with content. */
export function showAllPanes(state: TuiState): TuiState {
  const allPinned = SIDE_PANES.every((p) => state.ui.pinned.includes(p));
  return setUi(state, { hidden: [], pinned: allPinned ? [] : [...SIDE_PANES], zoom: undefined });
}

export function hideSidePanes(state: TuiState): TuiState {
  return setUi(state, { hidden: [...SIDE_PANES], focus: 'chat', zoom: undefined });
}

/** Scrolls chat by `lines` (positive = older), clamped at the bottom. */
export function scrollChat(state: TuiState, lines: number): TuiState {
  return setUi(state, { scroll: Math.max(0, state.ui.scroll + lines) });
}
