import { afterEach, describe, expect, it } from 'vitest';
import type { CronJob } from '../../source/protocol/index.js';
import { JobStore } from '../../source/schedule/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { ManualClock } from '../support/manual-clock.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { quiesce, RecordingRunner, savedJob } from './schedule-harness.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const DAY0 = Date.UTC(2026, 4, 4);

let gateway: TestGateway | undefined;
let state: TempState | undefined;
afterEach(async () => {
  await gateway?.stop();
  state?.cleanup();
  gateway = undefined;
  state = undefined;
});

/** A job as `cron add` would have written it on DAY0 at midnight, due at 06:30 that day. */
function dailyJob(id: string, catchUp: 'skip' | 'once'): CronJob {
  return savedJob({ id, schedule: { kind: 'cron', expr: '30 6 * * *' }, catchUp, createdAt: DAY0, nextRunAt: DAY0 + 6.5 * HOUR });
}

// This file's first gateway is the first code in its process to compute a cron expression:
// croner is loaded by the schedule service's start, from the jobs on disk.
describe('cron jobs with an expression, due while the gateway was down', () => {
  it('run (catchUp once) or are recorded missed (skip) at start, and the timer keeps firing them afterwards', async () => {
    state = makeTempState();
    await new JobStore(state.paths.cron).save([dailyJob('catch-up', 'once'), dailyJob('skipper', 'skip')]);
    // Down from before DAY0's slot until after DAY1's: two slots of each job passed.
    const clock = new ManualClock(DAY0 + DAY + 7 * HOUR);
    const runner = new RecordingRunner();
    gateway = await startTestGateway({ state, core: { clock, runner } });
    await quiesce(gateway.core);

    expect(runner.turns.map((turn) => [turn.sessionKey, turn.text])).toEqual([['cron:catch-up', 'run catch-up']]);
    const { schedule } = gateway.core;
    expect(schedule.runs('catch-up').map((run) => [run.scheduledAt, run.status])).toEqual([
      [DAY0 + DAY + 6.5 * HOUR, 'ok'],
      [DAY0 + 6.5 * HOUR, 'missed'],
    ]);
    expect(schedule.runs('skipper').map((run) => [run.scheduledAt, run.status])).toEqual([
      [DAY0 + DAY + 6.5 * HOUR, 'missed'],
      [DAY0 + 6.5 * HOUR, 'missed'],
    ]);
    for (const id of ['catch-up', 'skipper']) expect(schedule.cron.get(id)!.state.nextRunAt).toBe(DAY0 + 2 * DAY + 6.5 * HOUR);

    clock.advance(DAY);
    await quiesce(gateway.core);
    expect(runner.turns.map((turn) => turn.text)).toEqual(['run catch-up', 'run catch-up', 'run skipper']);
    expect(schedule.runs('skipper')[0]).toMatchObject({ scheduledAt: DAY0 + 2 * DAY + 6.5 * HOUR, status: 'ok' });
  });
});
