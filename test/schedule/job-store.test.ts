import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CronJob } from '../../source/protocol/index.js';
import { JobStore } from '../../source/schedule/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { ManualClock } from '../support/manual-clock.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { quiesce, RecordingRunner, savedJob } from './schedule-harness.js';

const START = Date.UTC(2026, 4, 4, 8);
const HOUR = 3_600_000;

let gateway: TestGateway | undefined;
let state: TempState | undefined;
afterEach(async () => {
  await gateway?.stop();
  state?.cleanup();
  gateway = undefined;
  state = undefined;
});

function hourlyJob(id: string): CronJob {
  return savedJob({ id, schedule: { kind: 'every', every: '1h' }, catchUp: 'skip', createdAt: START, nextRunAt: START + HOUR });
}

/** Which file is on disk: a rewrite is a rename of a new inode over it. */
function identity(path: string): string {
  const stat = statSync(path);
  return `${stat.ino}:${stat.mtimeMs}`;
}

describe('cron/jobs.json', () => {
  it('is not rewritten by a save of what it and its last good copy already hold', async () => {
    state = makeTempState();
    const store = new JobStore(state.paths.cron);
    await store.save([hourlyJob('a')]);
    const before = [identity(store.path), identity(store.lastGoodPath)];
    await store.save([hourlyJob('a')]);
    store.saveSync([hourlyJob('a')]);
    expect([identity(store.path), identity(store.lastGoodPath)]).toEqual(before);

    await store.save([hourlyJob('a'), hourlyJob('b')]);
    expect(identity(store.path)).not.toBe(before[0]);
    expect(store.loadSync().jobs.map((job) => job.id)).toEqual(['a', 'b']);
  });

  it('is rewritten when a hand edit made it differ from what the gateway saves', async () => {
    state = makeTempState();
    const store = new JobStore(state.paths.cron);
    await store.save([hourlyJob('a')]);
    const saved = readFileSync(store.path, 'utf8');
    writeFileSync(store.path, JSON.stringify({ version: 1, jobs: [hourlyJob('a')] }));
    await store.save([hourlyJob('a')]);
    expect(readFileSync(store.path, 'utf8')).toBe(saved);
  });

  it('is left as it is by a gateway restart that settles nothing', async () => {
    state = makeTempState();
    await new JobStore(state.paths.cron).save([hourlyJob('a')]);
    const clock = new ManualClock(START + 10 * 60_000);
    gateway = await startTestGateway({ state, core: { clock, runner: new RecordingRunner() } });
    await quiesce(gateway.core);
    await gateway.stop();
    const files = [join(state.paths.cron, 'jobs.json'), join(state.paths.cron, 'jobs.last-good.json')];
    const before = files.map(identity);

    gateway = await startTestGateway({ state, core: { clock, runner: new RecordingRunner() } });
    await quiesce(gateway.core);
    expect(files.map(identity)).toEqual(before);
    expect(gateway.core.schedule.cron.get('a')!.state.nextRunAt).toBe(START + HOUR);
  });
});
