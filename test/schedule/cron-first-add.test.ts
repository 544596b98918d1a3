import { afterEach, describe, expect, it } from 'vitest';
import { startScheduleGateway, type ScheduleGateway } from './schedule-harness.js';

const HOUR = 3_600_000;
const START = Date.UTC(2026, 4, 4, 9);

let gateway: ScheduleGateway | undefined;
afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
});

// A gateway that starts with no cron expression never loads croner; these requests are this
// process's first cron computations, so they wait for it to load.
describe('the first cron expression after start', () => {
  it('is checked and scheduled when asked for: a bad one, then an edit, then a new job, all at once', async () => {
    gateway = await startScheduleGateway({ start: START });
    const client = await gateway.connect();
    const every = (
      await client.request('cron.add', { job: { name: 'hourly', schedule: { kind: 'every', every: '1h' }, payload: { kind: 'agentTurn', message: 'every' } } })
    ).job;
    expect(every.state.nextRunAt).toBe(START + HOUR);

    const [bad, edited, added] = await Promise.allSettled([
      client.request('cron.add', { job: { name: 'broken', schedule: { kind: 'cron', expr: '61 * * * *' }, payload: { kind: 'agentTurn', message: 'x' } } }),
      client.request('cron.update', { id: every.id, patch: { schedule: { kind: 'cron', expr: '15 10 * * *' } } }),
      client.request('cron.add', {
        job: { name: 'evening', schedule: { kind: 'cron', expr: '0 18 * * *', exact: true }, payload: { kind: 'agentTurn', message: 'evening' } },
      }),
    ]);
    expect(bad.status === 'rejected' && String(bad.reason)).toMatch(/The cron expression "61 \* \* \* \*" is not valid: .*Write five fields/);
    expect(edited.status === 'fulfilled' && edited.value.job.state.nextRunAt).toBe(START + HOUR + 15 * 60_000);
    expect(added.status === 'fulfilled' && added.value.job.state.nextRunAt).toBe(START + 9 * HOUR);
    expect((await client.request('schedule.list')).jobs.map((job) => job.name)).toEqual(['hourly', 'evening']);

    await gateway.advanceTo(START + 9 * HOUR);
    expect(gateway.runner.turns.map((turn) => turn.text)).toEqual(['every', 'evening']);
  });
});
