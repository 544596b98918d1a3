import type { PaneId } from './store/state.js';

export interface PaneBox {
  id: PaneId;
  height: number;
}

export interface Column {
  width: number;
  panes: PaneBox[];
}

export interface Layout {
  width: number;
  /** Rows drawn: one less than the terminal so the last newline never scrolls the alternate screen. */
  height: number;
  bodyHeight: number;
  chatWidth: number;
  left?: Column;
  right?: Column;
  /** When set, this side pane fills the body instead of chat and columns. */
  zoomed?: PaneId;
}

const WEIGHTS: Record<Exclude<PaneId, 'chat'>, number> = { sessions: 3, lanes: 2, context: 3, subagents: 2, schedule: 2 };
const MIN_PANE = 3;

function splitColumn(ids: PaneId[], height: number, width: number): Column | undefined {
  const visible = ids.filter((id): id is Exclude<PaneId, 'chat'> => id !== 'chat');
  if (visible.length === 0) return undefined;
  // Drop the lowest-weight panes when the column cannot give each a title and two rows.
  while (visible.length > 1 && visible.length * MIN_PANE > height) visible.pop();
  const total = visible.reduce((sum, id) => sum + WEIGHTS[id], 0);
  let left = height;
  const panes = visible.map((id, index) => {
    const share = index === visible.length - 1 ? left : Math.max(MIN_PANE, Math.floor((height * WEIGHTS[id]) / total));
    left -= share;
    return { id, height: share };
  });
  return { width, panes };
}

/**
 * Where each pane goes for a terminal size. Narrow terminals (< 110 columns)
 * get one sidebar on the left; wide ones a sidebar on each side of the chat.
 */
export function computeLayout(input: { cols: number; rows: number; hidden: readonly PaneId[]; zoom?: PaneId | undefined; bottomRows: number }): Layout {
  const width = Math.max(20, input.cols);
  const height = Math.max(8, input.rows - 1);
  const bodyHeight = Math.max(1, height - 2 - input.bottomRows);
  const shown = (id: PaneId): boolean => !input.hidden.includes(id);
  if (input.zoom && input.zoom !== 'chat' && shown(input.zoom)) {
    return { width, height, bodyHeight, chatWidth: width, zoomed: input.zoom };
  }
  if (input.zoom === 'chat') return { width, height, bodyHeight, chatWidth: width };
  const wide = width >= 110;
  const leftIds = (wide ? ['sessions', 'lanes', 'schedule'] : ['sessions', 'context', 'lanes', 'subagents', 'schedule']).filter((id) =>
    shown(id as PaneId),
  ) as PaneId[];
  const rightIds = (wide ? ['context', 'subagents'] : []).filter((id) => shown(id as PaneId)) as PaneId[];
  const leftWidth = wide ? 30 : Math.min(26, Math.floor(width / 3));
  const rightWidth = wide ? Math.min(44, Math.floor(width / 4)) : 0;
  const left = splitColumn(leftIds, bodyHeight, leftWidth);
  const right = splitColumn(rightIds, bodyHeight, rightWidth);
  const chatWidth = Math.max(10, width - (left ? left.width : 0) - (right ? right.width : 0));
  return { width, height, bodyHeight, chatWidth, ...(left ? { left } : {}), ...(right ? { right } : {}) };
}

/** Panes Tab cycles through, in screen order. */
export function focusOrder(layout: Layout): PaneId[] {
  if (layout.zoomed) return [layout.zoomed];
  return [...(layout.left?.panes.map((p) => p.id) ?? []), 'chat', ...(layout.right?.panes.map((p) => p.id) ?? [])];
}
