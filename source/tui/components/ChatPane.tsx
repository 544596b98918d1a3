import { Box, Text } from 'ink';
import { useEffect } from 'react';
import { selectChat } from '../store/selectors.js';
import type { TuiState } from '../store/state.js';
import type { TuiStore } from '../store/store.js';
import { chatWindow, scrollToEntry, type Line } from '../text/chat-lines.js';
import { progressLine } from '../text/progress.js';
import { setUi } from '../ui-actions.js';
import { MarkedText } from './MarkedText.js';

/** Draws only the visible window of the conversation; history length does not change its cost. */
export function ChatPane({
  state,
  store,
  width,
  height,
  now,
  notice,
}: {
  state: TuiState;
  store: TuiStore;
  width: number;
  height: number;
  now: number;
  notice?: string | undefined;
}) {
  const log = selectChat(state);
  const textWidth = Math.max(10, width - 1);
  const progress = state.progress[state.currentKey];
  const footer: Line[] = progress && log.running ? [{ text: '' }, progressLine(progress, now, log.streaming !== undefined)] : [];
  const anchor = state.ui.anchor?.key === state.currentKey ? state.ui.anchor : undefined;
  const target = anchor?.pending
    ? scrollToEntry(log.items, log.streaming?.text, textWidth, height, state.ui.toolsExpanded, anchor.entryId, footer.length)
    : undefined;
  useEffect(() => {
    if (target !== undefined) store.update((s) => (s.ui.anchor ? setUi(s, { scroll: target, anchor: { ...s.ui.anchor, pending: false } }) : s));
  }, [target, store]);
  const scroll = target ?? state.ui.scroll;
  const view = chatWindow(log.items, log.streaming?.text, textWidth, height, scroll, state.ui.toolsExpanded, anchor?.entryId, footer);
  const topReached = view.above === 0;
  const clamped = topReached && view.lines.length < height && scroll > 0;
  useEffect(() => {
    if (clamped) store.update((s) => setUi(s, { scroll: Math.max(0, s.ui.scroll - (height - view.lines.length)) }));
  }, [clamped, height, view.lines.length, store]);
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
          {line.text === '' ? ' ' : line.marked && anchor ? <MarkedText text={line.text} query={anchor.query} /> : line.text}
        </Text>
      ))}
    </Box>
  );
}
