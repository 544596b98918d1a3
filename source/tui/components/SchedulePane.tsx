import { Text } from 'ink';
import { scheduleRows } from '../store/schedule-view.js';
import type { TuiState } from '../store/state.js';
import { padTo } from '../text/width.js';
import { Empty, Pane } from './Pane.js';

const TONE = { running: 'green', error: 'red', notice: 'yellow' } as const;

/** Cron and heartbeat at a glance: what runs now, what runs next, and what the operator should know. */
export function SchedulePane({ state, width, height, focused, now }: { state: TuiState; width: number; height: number; focused: boolean; now: number }) {
  const schedule = state.schedule;
  const rows = schedule ? scheduleRows(schedule, now) : [];
  return (
    <Pane title="Schedule" width={width} height={height} focused={focused}>
      {!schedule ? (
        <Empty text="no schedule from this gateway" />
      ) : rows.length === 0 ? (
        <Empty text="no cron jobs; /cron add" />
      ) : (
        rows.slice(0, Math.max(0, height - 1)).map((row) => (
          <Text key={row.key} wrap="truncate" {...(row.tone ? { color: TONE[row.tone] } : {})}>
            {padTo(` ${row.text}`, width)}
          </Text>
        ))
      )}
    </Pane>
  );
}
