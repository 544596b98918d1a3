import { Text } from 'ink';
import { selectSubagents } from '../store/selectors.js';
import type { TuiState } from '../store/state.js';
import { buildSubagentTree, type TreeRow } from '../text/tree.js';
import { padTo } from '../text/width.js';
import { Empty, Pane } from './Pane.js';

const STATUS = { queued: '…', running: '▶', done: '✓', failed: '✗', cancelled: '■', timeout: '⧗' } as const;
const DELIVERY = { pending: '→ pending', delivered: '✓ delivered', skipped: 'skipped' } as const;

function rowText(row: TreeRow): string {
  const parts = [`${row.prefix}${STATUS[row.status]} ${row.label} ${row.elapsed}`];
  // A finished child's news is where its result is; a running one's is what it is doing.
  if (row.delivery) parts.push(DELIVERY[row.delivery]);
  else if (row.lastTool) parts.push(row.lastTool);
  if (row.tokens) parts.push(`${row.tokens} tok`);
  return ` ${parts.join(' · ')}`;
}

/** The current session's children (and theirs); when focused, ↑↓ pick one, Enter opens it, c cancels, s steers. */
export function SubagentsPane({ state, width, height, focused, now }: { state: TuiState; width: number; height: number; focused: boolean; now: number }) {
  const rows = buildSubagentTree(selectSubagents(state), now);
  const cursor = Math.min(state.ui.subagentCursor ?? 0, rows.length - 1);
  const room = Math.max(0, height - (focused ? 2 : 1));
  const first = Math.max(0, Math.min(cursor - room + 1, rows.length - room));
  return (
    <Pane title="Sub-agents" width={width} height={height} focused={focused}>
      {rows.length === 0 ? (
        <Empty text="no sub-agents running" />
      ) : (
        [
          ...rows.slice(first, first + room).map((row, i) => (
            <Text
              key={row.key}
              inverse={focused && first + i === cursor}
              color={row.status === 'failed' || row.status === 'timeout' ? 'red' : row.status === 'running' ? 'green' : undefined}
              wrap="truncate"
            >
              {padTo(rowText(row), width)}
            </Text>
          )),
          ...(focused
            ? [
                <Text key="keys" dimColor wrap="truncate">
                  {padTo(' ↑↓ pick · Enter transcript · c cancel · s steer', width)}
                </Text>,
              ]
            : []),
        ]
      )}
    </Pane>
  );
}
