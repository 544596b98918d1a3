import type { Layout } from './layout.js';
import { focusOrder } from './layout.js';
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
  return setUi(state, { hidden: [...state.ui.hidden, pane], focus: 'chat', zoom: state.ui.zoom === pane ? undefined : state.ui.zoom });
}

export function showAllPanes(state: TuiState): TuiState {
  return setUi(state, { hidden: [], zoom: undefined });
}

export function hideSidePanes(state: TuiState): TuiState {
  return setUi(state, { hidden: [...SIDE_PANES], focus: 'chat', zoom: undefined });
}

/** Scrolls chat by `lines` (positive = older), clamped at the bottom. */
export function scrollChat(state: TuiState, lines: number): TuiState {
  return setUi(state, { scroll: Math.max(0, state.ui.scroll + lines) });
}
