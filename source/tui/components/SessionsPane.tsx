import { Text } from 'ink';
import { selectSessionRows } from '../store/selectors.js';
import type { TuiState } from '../store/state.js';
import { shortSessionKey } from '../text/format.js';
import { padTo } from '../text/width.js';
import { Empty, Pane } from './Pane.js';

export function SessionsPane({ state, width, height, focused }: { state: TuiState; width: number; height: number; focused: boolean }) {
  const rows = selectSessionRows(state);
  let sessionIndex = -1;
  const body = rows.map((row) => {
    if (row.kind === 'agent')
      return (
        <Text key={row.key} bold wrap="truncate">
          {padTo(` ${row.label}`, width)}
        </Text>
      );
    sessionIndex += 1;
    const badges = `${row.running ? ' ▶' : ''}${row.queued > 0 ? ` +${row.queued}` : ''}${row.unread > 0 ? ` •${row.unread}` : ''}`;
    const name = padTo(`${row.current ? ' ›' : '  '} ${shortSessionKey(row.label)}`, Math.max(1, width - badges.length));
    const selected = focused && sessionIndex === state.ui.sessionCursor;
    return (
      <Text key={row.key} inverse={selected} wrap="truncate">
        <Text color={row.current ? 'cyan' : undefined}>{name}</Text>
        <Text color="yellow">{badges}</Text>
      </Text>
    );
  });
  return (
    <Pane title="Sessions" width={width} height={height} focused={focused}>
      {rows.length === 0 ? <Empty text="no sessions yet" /> : body.slice(0, Math.max(0, height - 1))}
    </Pane>
  );
}
