import { Text } from 'ink';
import type { TuiState } from '../store/state.js';
import { buildSubagentTree } from '../text/tree.js';
import { padTo } from '../text/width.js';
import { Empty, Pane } from './Pane.js';

const STATUS = { queued: '…', running: '▶', done: '✓', failed: '✗', cancelled: '■', timeout: '⧗' } as const;

export function SubagentsPane({ state, width, height, focused, now }: { state: TuiState; width: number; height: number; focused: boolean; now: number }) {
  const rows = buildSubagentTree(state.subagents, now);
  return (
    <Pane title="Sub-agents" width={width} height={height} focused={focused}>
      {rows.length === 0 ? (
        <Empty text="no sub-agents running" />
      ) : (
        rows.slice(0, Math.max(0, height - 1)).map((row) => (
          <Text
            key={row.key}
            color={row.status === 'failed' || row.status === 'timeout' ? 'red' : row.status === 'running' ? 'green' : undefined}
            wrap="truncate"
          >
            {padTo(` ${row.prefix}${STATUS[row.status]} ${row.label} ${row.elapsed}${row.lastTool ? ` · ${row.lastTool}` : ''}`, width)}
          </Text>
        ))
      )}
    </Pane>
  );
}
