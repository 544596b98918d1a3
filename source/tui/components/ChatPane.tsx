import { Box, Text } from 'ink';
import { useEffect } from 'react';
import { selectChat } from '../store/selectors.js';
import type { TuiState } from '../store/state.js';
import type { TuiStore } from '../store/store.js';
import { chatWindow } from '../text/chat-lines.js';
import { setUi } from '../ui-actions.js';

/** Draws only the visible window of the conversation; history length does not change its cost. */
export function ChatPane({ state, store, width, height }: { state: TuiState; store: TuiStore; width: number; height: number }) {
  const log = selectChat(state);
  const scroll = state.ui.scroll;
  const view = chatWindow(log.items, log.streaming?.text, Math.max(10, width - 1), height, scroll, state.ui.toolsExpanded);
  const topReached = view.above === 0;
  const clamped = topReached && view.lines.length < height && scroll > 0;
  useEffect(() => {
    if (clamped) store.update((s) => setUi(s, { scroll: Math.max(0, s.ui.scroll - (height - view.lines.length)) }));
  }, [clamped, height, view.lines.length, store]);
  const banner = scroll > 0 ? `↑ scrolled ${scroll} lines · End/PgDn to follow${topReached && log.hasMore ? ' · loading older…' : ''}` : undefined;
  const lines = banner ? view.lines.slice(1) : view.lines;
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden" paddingLeft={1}>
      {banner ? <Text color="blue" wrap="truncate">{banner}</Text> : null}
      {log.items.length === 0 && !log.streaming ? <Text dimColor>Type a message and press Enter. /help lists commands.</Text> : null}
      {lines.map((line, i) => (
        <Text key={i} color={line.color} bold={line.bold} dimColor={line.dim} wrap="truncate">{line.text === '' ? ' ' : line.text}</Text>
      ))}
    </Box>
  );
}
