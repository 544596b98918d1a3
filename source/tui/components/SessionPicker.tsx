import { Box, Text } from 'ink';
import { pickerSessions } from '../store/session-picker.js';
import type { TuiState } from '../store/state.js';
import { formatAge } from '../text/format.js';
import { padTo, truncate } from '../text/width.js';

const PICKER_ROWS = 8;

export function sessionPickerHeight(state: TuiState): number {
  const rows = pickerSessions(state, state.ui.sessionPicker?.filter ?? '').length;
  return 1 + Math.max(1, Math.min(PICKER_ROWS, rows));
}

/** /sessions: fuzzy filter, last activity and first line; Enter switches. */
export function SessionPicker({ state, width, now }: { state: TuiState; width: number; now: number }) {
  const picker = state.ui.sessionPicker!;
  const rows = pickerSessions(state, picker.filter);
  const index = Math.min(picker.index, Math.max(0, rows.length - 1));
  const start = Math.max(0, Math.min(index - PICKER_ROWS + 1, rows.length - PICKER_ROWS));
  const nameWidth = Math.min(34, Math.floor(width / 3));
  return (
    <Box flexDirection="column" width={width}>
      <Text bold color="cyan" wrap="truncate">
        {truncate(` Sessions: ${picker.filter}▏ (type to filter · ↑/↓ · Enter switch · Esc close)`, width)}
      </Text>
      {rows.length === 0 ? (
        <Text dimColor wrap="truncate">
          {' '}
          no session matches
        </Text>
      ) : (
        rows.slice(start, start + PICKER_ROWS).map((row, i) => (
          <Text key={row.key} inverse={start + i === index} wrap="truncate">
            {padTo(`${row.current ? ' ›' : '  '} ${row.label}${row.unread > 0 ? ` •${row.unread}` : ''}`, nameWidth)}
            <Text dimColor>{padTo(` ${formatAge(now - row.updatedAt)}`, 10)}</Text>
            {truncate(row.firstLine, Math.max(0, width - nameWidth - 10))}
          </Text>
        ))
      )}
    </Box>
  );
}
