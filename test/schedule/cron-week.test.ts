import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayClient } from '../../source/client/index.js';
import type { CronJob, CronRun } from '../../source/protocol/index.js';
import { STAGGER_WINDOW_MS } from '../../source/schedule/index.js';
import { startScheduleGateway, type ScheduleGateway } from './schedule-harness.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Monday 2026-03-23 00:00 UTC: the week holds Europe/Berlin's switch to summer time (Sunday 29 March, 02:00 → 03:00). */
const WEEK_START = Date.UTC(2026, 2, 23);

let gateway: ScheduleGateway | undefined;
afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
});

async function add(client: GatewayClient, job: Record<string, unknown>): Promise<CronJob> {
  return (await client.request('cron.add', { job: job as never })).job;
}

function berlinDay(at: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

function berlinTime(at: number): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
}

/** Started lines per slot, read from the raw run log: the exactly-once check does not trust the fold. */
function startsPerSlot(gateway: ScheduleGateway, jobId: string): Map<number, number> {
  const counts = new Map<number, number>();
  const text = readFileSync(join(gateway.state.paths.cron, 'runs', `${jobId}.jsonl`), 'utf8');
  for (const line of text.split('\n').filter(Boolean)) {
    const record = JSON.parse(line) as { type: string; scheduledAt: number };
    if (record.type === 'started') counts.set(record.scheduledAt, (counts.get(record.scheduledAt) ?? 0) + 1);
  }
  return counts;
}

describe('cron over a simulated week', () => {
  it('fires every slot exactly once, across a DST change, with the stagger inside its window', async () => {
    gateway = await startScheduleGateway({ start: WEEK_START - 1000 });
    const client = await gateway.connect();
    const hourly = await add(client, { name: 'hourly', schedule: { kind: 'cron', expr: '0 * * * *' }, payload: { kind: 'agentTurn', message: 'tick' } });
    const exactHourly = await add(client, {
      name: 'exact hourly',
      schedule: { kind: 'cron', expr: '0 * * * *', exact: true },
      payload: { kind: 'agentTurn', message: 'tock' },
    });
    const nightly = await add(client, {
      name: 'nightly',
      schedule: { kind: 'cron', expr: '30 2 * * *', tz: 'Europe/Berlin' },
      payload: { kind: 'agentTurn', message: 'night' },
    });
    const weekdays = await add(client, {
      name: 'digest',
      schedule: { kind: 'cron', expr: '0 8 * * 1-5', tz: 'Europe/Berlin' },
      payload: { kind: 'systemEvent', text: 'morning digest' },
    });
    const every = await add(client, { name: 'every 90m', schedule: { kind: 'every', every: '90m' }, payload: { kind: 'agentTurn', message: 'interval' } });

    await gateway.advanceTo(WEEK_START + 7 * DAY - 1000);

    const runs = async (job: CronJob): Promise<CronRun[]> => (await client.request('schedule.runs', { id: job.id, limit: 1000 })).runs.reverse();
    for (const job of [hourly, exactHourly, nightly, weekdays, every]) {
      const log = await runs(job);
      expect(
        log.every((run) => run.status === 'ok'),
        `${job.name}: ${JSON.stringify(log.filter((r) => r.status !== 'ok'))}`,
      ).toBe(true);
      const starts = startsPerSlot(gateway, job.id);
      expect(
        [...starts.values()].every((count) => count === 1),
        job.name,
      ).toBe(true);
      expect(starts.size).toBe(log.length);
      for (const run of log) expect(run.startedAt! - run.scheduledAt).toBeLessThan(60_000);
    }

    const hourlyRuns = await runs(hourly);
    expect(hourlyRuns).toHaveLength(7 * 24);
    const offsets = new Set(hourlyRuns.map((run) => run.scheduledAt % HOUR));
    expect(offsets.size).toBe(1);
    const [offset] = offsets;
    expect(offset).toBeGreaterThanOrEqual(0);
    expect(offset).toBeLessThan(STAGGER_WINDOW_MS);
    expect((await runs(exactHourly)).map((run) => run.scheduledAt % HOUR)).toEqual(new Array(7 * 24).fill(0));

    const nightlyRuns = await runs(nightly);
    expect(nightlyRuns.map((run) => berlinDay(run.scheduledAt))).toEqual([
      '2026-03-23',
      '2026-03-24',
      '2026-03-25',
      '2026-03-26',
      '2026-03-27',
      '2026-03-28',
      '2026-03-29',
    ]);
    // 02:30 does not exist on the night of the switch: that slot runs once, at the first minute that does.
    expect(nightlyRuns.map((run) => berlinTime(run.scheduledAt))).toEqual(['02:30', '02:30', '02:30', '02:30', '02:30', '02:30', '03:00']);

    const digest = await runs(weekdays);
    expect(digest).toHaveLength(5);
    for (const run of digest) {
      const local = berlinTime(run.scheduledAt);
      expect(local >= '08:00' && local < '08:05', local).toBe(true);
    }
    expect(gateway.runner.turns.filter((t) => t.sessionKey === 'agent:main:main').map((t) => t.text)).toEqual(
      new Array(5).fill('[cron: digest] morning digest'),
    );

    expect(await runs(every)).toHaveLength((7 * DAY) / (90 * 60_000));
    expect(gateway.runner.turns.filter((t) => t.sessionKey === `cron:${hourly.id}`)).toHaveLength(7 * 24);
  }, 120_000);
});
