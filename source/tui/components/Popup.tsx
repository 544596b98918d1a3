import { Box, Text } from 'ink';
import { padTo } from '../text/width.js';

export const POPUP_ROWS = 6;

/** A list above the input: slash completions or a picker. */
export function Popup({ title, items, index, width }: { title?: string; items: { label: string; description: string }[]; index: number; width: number }) {
  const start = Math.max(0, Math.min(index - POPUP_ROWS + 1, items.length - POPUP_ROWS));
  return (
    <Box flexDirection="column" width={width}>
      {title ? <Text bold color="cyan" wrap="truncate">{` ${title} (↑/↓, Enter, Esc)`}</Text> : null}
      {items.slice(start, start + POPUP_ROWS).map((item, i) => (
        <Text key={item.label} inverse={start + i === index} wrap="truncate">
          {padTo(` ${item.label}`, Math.min(28, Math.floor(width / 2)))}
          <Text dimColor>{item.description}</Text>
        </Text>
      ))}
    </Box>
  );
}

export function popupHeight(count: number, titled: boolean): number {
  return count === 0 ? 0 : Math.min(POPUP_ROWS, count) + (titled ? 1 : 0);
}
