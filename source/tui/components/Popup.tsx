import { Box, Text } from 'ink';
import { padTo } from '../text/width.js';

export const POPUP_ROWS = 6;

/** The label column's width: the longest label, within 28 columns and half the screen. */
function labelColumn(items: ReadonlyArray<{ label: string }>, width: number): number {
  return Math.min(28, Math.floor(width / 2), Math.max(...items.map((item) => item.label.length + 2)));
}

/**
 * A label too long for its column (a command with a long argument hint) keeps
 * its first word there; the hint leads the description instead of being cut.
 */
function fitted(item: { label: string; description: string }, column: number): { label: string; description: string } {
  if (item.label.length + 2 <= column || !item.label.includes(' ')) return item;
  const space = item.label.indexOf(' ');
  return { label: item.label.slice(0, space), description: `${item.label.slice(space + 1)} — ${item.description}` };
}

/** A list above the input: slash completions or a picker. */
export function Popup({ title, items, index, width }: { title?: string; items: { label: string; description: string }[]; index: number; width: number }) {
  const start = Math.max(0, Math.min(index - POPUP_ROWS + 1, items.length - POPUP_ROWS));
  const column = labelColumn(items, width);
  return (
    <Box flexDirection="column" width={width}>
      {title ? <Text bold color="cyan" wrap="truncate">{` ${title} (↑/↓, Enter, Esc)`}</Text> : null}
      {items.slice(start, start + POPUP_ROWS).map((item, i) => {
        const shown = fitted(item, column);
        return (
          <Text key={item.label} inverse={start + i === index} wrap="truncate">
            {padTo(` ${shown.label}`, column)}
            <Text dimColor>{shown.description}</Text>
          </Text>
        );
      })}
    </Box>
  );
}

export function popupHeight(count: number, titled: boolean): number {
  return count === 0 ? 0 : Math.min(POPUP_ROWS, count) + (titled ? 1 : 0);
}
