import { Text } from 'ink';
import type { TuiState } from '../store/state.js';
import { formatDuration, shortSessionKey } from '../text/format.js';
import { padTo } from '../text/width.js';
import { Empty, Pane } from './Pane.js';

export function LanesPane({ state, width, height, focused, now }: { state: TuiState; width: number; height: number; focused: boolean; now: number }) {
  const lanes = state.lanes;
  const title = lanes ? `Lanes ${lanes.global.active}/${lanes.global.limit}` : 'Lanes';
  const busy = lanes?.lanes.filter((l) => l.active || l.depth > 0) ?? [];
  return (
    <Pane title={title} width={width} height={height} focused={focused}>
      {!lanes ? (
        <Empty text="waiting for lane events" />
      ) : busy.length === 0 ? (
        <Empty text="all lanes idle" />
      ) : (
        busy.slice(0, Math.max(0, height - 1)).map((lane) => {
          const run = lane.active ? `▶ ${lane.startedAt !== undefined ? formatDuration(now - lane.startedAt) : ''}` : '·';
          const queued = lane.depth > 0 ? ` +${lane.depth}` : '';
          return (
            <Text key={lane.key} wrap="truncate">
              {padTo(` ${run} ${shortSessionKey(lane.key)}${queued}`, width)}
            </Text>
          );
        })
      )}
    </Pane>
  );
}
