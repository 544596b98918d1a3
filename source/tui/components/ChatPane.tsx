import { Box, Text } from 'ink';
import { memo, useEffect } from 'react';
import { selectChat } from '../store/selectors.js';
import type { ChatLog, TuiState, TurnProgress, UiState } from '../store/state.js';
import type { TuiStore } from '../store/store.js';
import { cachedItemLines, chatWindow, scrollToEntry, type Line } from '../text/chat-lines.js';
import type { LineCount } from '../store/history-window.js';
import { progressLine } from '../text/progress.js';
import { setUi } from '../ui-actions.js';
import { MarkedText } from './MarkedText.js';

/** Which end of the window in memory the view reached: older history, the gap below a paged-back window, or the bottom past it. */
export type ChatEdge = 'older' | 'newer' | 'latest';

export interface ChatPaneProps {
  log: ChatLog;
  progress: TurnProgress | undefined;
  /** The search jump in this session, if any. */
  anchor: UiState['anchor'];
  scroll: number;
  expanded: boolean;
  /** Assistant replies as their Markdown source instead of rendered (Alt+M). */
  raw: boolean;
  store: TuiStore;
  width: number;
  height: number;
  /** The clock, for the progress line only: 0 while no turn runs, so an idle chat is not redrawn every second. */
  now: number;
  notice?: string | undefined;
  /** The view came within a screen of an end of the window in memory that has more beyond it. */
  onEdge?: ((edge: ChatEdge, lines: LineCount) => void) | undefined;
}

/** What the chat pane draws of the state: the current session's log and progress, the scroll and a search jump. */
export function chatPaneProps(state: TuiState): Pick<ChatPaneProps, 'log' | 'progress' | 'anchor' | 'scroll' | 'expanded' | 'raw'> {
  return {
    log: selectChat(state),
    progress: state.progress[state.currentKey],
    anchor: state.ui.anchor?.key === state.currentKey ? state.ui.anchor : undefined,
    scroll: state.ui.scroll,
    expanded: state.ui.toolsExpanded,
    raw: state.ui.rawMarkdown,
  };
}

/**
 * Draws only the visible window of the conversation; history length does not
 * change its cost. Memoised on exactly what it draws, so a keystroke or a
 * change in another session leaves it alone.
 */
export const ChatPane = memo(function ChatPane({
  log,
  progress,
  anchor,
  scroll: scrolled,
  expanded,
  raw,
  store,
  width,
  height,
  now,
  notice,
  onEdge,
}: ChatPaneProps) {
  const textWidth = Math.max(10, width - 1);
  const footer: Line[] = progress && log.running ? [{ text: '' }, progressLine(progress, now, log.streaming !== undefined)] : [];
  const gapAfter = log.newer?.after;
  const target = anchor?.pending
    ? scrollToEntry(log.items, log.streaming?.text, textWidth, height, expanded, anchor.entryId, footer.length, gapAfter, raw)
    : undefined;
  useEffect(() => {
    if (target !== undefined) store.update((s) => (s.ui.anchor ? setUi(s, { scroll: target, anchor: { ...s.ui.anchor, pending: false } }) : s));
  }, [target, store]);
  const scroll = target ?? scrolled;
  const view = chatWindow(log.items, log.streaming?.text, textWidth, height, scroll, expanded, anchor?.entryId, footer, gapAfter, raw);
  const topReached = view.above === 0;
  // Within a screen of the oldest line in memory, or of the gap below a window
  // paged far back (or past it, in what arrived live), the page beyond is
  // fetched; following the bottom (End, a message sent) jumps to the latest.
  const nearOlder = log.hasMore && scroll > 0 && view.above < height;
  const nearGap = view.gapBelow === undefined || scroll - view.gapBelow < height;
  const edge: ChatEdge | undefined = nearOlder ? 'older' : gapAfter === undefined ? undefined : scroll === 0 ? 'latest' : nearGap ? 'newer' : undefined;
  useEffect(() => {
    if (edge) onEdge?.(edge, (item) => cachedItemLines(item, textWidth, expanded, raw).length);
  }, [edge, log.items, onEdge, textWidth, expanded, raw]);
  // Scrolled past the top (Home, or a window that got shorter): back to the first line.
  const topScroll = Math.max(0, view.total - height);
  const clamped = topReached && view.lines.length < height && scroll > topScroll;
  useEffect(() => {
    if (clamped) store.update((s) => setUi(s, { scroll: Math.min(s.ui.scroll, topScroll) }));
  }, [clamped, topScroll, store]);
  const banner = scroll > 0 ? `↑ scrolled ${scroll} lines · End/PgDn to follow${topReached && log.hasMore ? ' · loading older…' : ''}` : undefined;
  const top = [banner, notice].filter((x): x is string => x !== undefined);
  const lines = view.lines.slice(Math.min(view.lines.length, top.length));
  const empty = log.items.length === 0 && !log.streaming;
  return (
    // Only rows are clipped: every line is already truncated to the width, and a
    // horizontal clip would re-slice each line's ANSI codes on every frame.
    <Box flexDirection="column" width={width} height={height} overflowY="hidden" paddingLeft={1}>
      {banner ? (
        <Text color="blue" wrap="truncate">
          {banner}
        </Text>
      ) : null}
      {notice ? (
        <Text color="yellow" wrap="truncate">
          {notice}
        </Text>
      ) : null}
      {empty && !notice ? (
        <Text dimColor wrap="truncate">
          Type a message and press Enter. /help lists commands, ? the keys.
        </Text>
      ) : null}
      {lines.map((line, i) => (
        <Text key={i} color={line.color} bold={line.bold} dimColor={line.dim} wrap="truncate">
          {line.text === '' ? (
            ' '
          ) : line.marked && anchor ? (
            <MarkedText text={line.text} query={anchor.query} />
          ) : line.spans ? (
            line.spans.map((span, j) => (
              <Text key={j} color={span.color} bold={span.bold} italic={span.italic} underline={span.underline} strikethrough={span.strike} dimColor={span.dim}>
                {span.text}
              </Text>
            ))
          ) : (
            line.text
          )}
        </Text>
      ))}
    </Box>
  );
});
