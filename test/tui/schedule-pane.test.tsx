import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { PayloadOf } from '../../source/protocol/index.js';
import { SchedulePane } from '../../source/tui/components/SchedulePane.js';
import { reduceEvent } from '../../source/tui/store/event-table.js';
import { reduceHello } from '../../source/tui/store/reducers.js';
import { selectHiddenPanes, selectPaneSummary } from '../../source/tui/store/selectors.js';
import { initialState, type TuiState } from '../../source/tui/store/state.js';
import { startScheduleGateway, type ScheduleGateway } from '../schedule/schedule-harness.js';

const MIN = 60_000;
let gateway: ScheduleGateway | undefined;
const cleanups: Array<() => void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) c();
  await gateway?.stop();
  gateway = undefined;
});

function frameOf(state: TuiState, now: number, height = 8): string {
  const instance = render(<SchedulePane state={state} width={44} height={height} focused={false} now={now} />);
  cleanups.push(instance.unmount);
  return instance.lastFrame() ?? '';
}

describe('schedule pane', () => {
  it('fills from the hello snapshot, follows schedule events, and opens itself only while something runs or needs saying', async () => {
    const start = new Date(2026, 2, 2, 7, 0).getTime();
    gateway = await startScheduleGateway({ start });
    const client = await gateway.connect();
    await client.request('cron.add', {
      job: { name: 'digest', schedule: { kind: 'cron', expr: '0 8 * * *', exact: true }, payload: { kind: 'agentTurn', message: 'write the digest' } },
    });
    // A second client attaches: its hello carries the schedule.
    const late = await gateway.connect();
    let state = reduceHello(initialState(), late.hello!);
    expect(state.schedule?.totalJobs).toBe(1);
    let frame = frameOf(state, start);
    expect(frame).toContain('Schedule');
    expect(frame).toMatch(/08:00 digest/);
    expect(frame).toMatch(/⟳ main next 07:30/);
    // Nothing runs and nothing needs saying: the pane stays closed, the footer names the next run.
    expect(selectHiddenPanes(state)).toContain('schedule');
    expect(selectPaneSummary(state)).toMatch(/next cron digest (\S+ )?08:00/);

    const glances: Array<PayloadOf<'schedule'>> = [];
    late.on('schedule', (payload) => glances.push(payload));
    gateway.runner.reply = () => ({ status: 'failed', error: 'the model is down' });
    await gateway.advanceTo(start + 61 * MIN, MIN);
    for (let i = 0; i < 100 && !glances.some((g) => g.jobs[0]?.state.lastStatus === 'error'); i += 1) {
      gateway.clock.advance(500);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    for (const glance of glances) state = reduceEvent(state, 'schedule', glance, start + 61 * MIN);
    frame = frameOf(state, start + 61 * MIN);
    expect(frame).toMatch(/✗ Tue 08:00 digest/);
  });

  it('says what waits when there is nothing at all', () => {
    const frame = frameOf({ ...initialState(), schedule: { jobs: [], heartbeats: [], notices: [], totalJobs: 0 } }, 0);
    expect(frame).toContain('no cron jobs; /cron add');
  });
});
