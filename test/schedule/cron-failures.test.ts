import { afterEach, describe, expect, it } from 'vitest';
import type { CronEventPayload } from '../../source/protocol/index.js';
import { ERROR_BACKOFF_MS } from '../../source/schedule/index.js';
import { startScheduleGateway, type ScheduleGateway } from './schedule-harness.js';

let gateway: ScheduleGateway | undefined;
afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
});

const MIN = 60_000;

describe('cron failures', () => {
  it('backs off after errors, alerts after two in a row, and recovers on success', async () => {
    gateway = await startScheduleGateway();
    const client = await gateway.connect();
    const events: CronEventPayload[] = [];
    client.on('cron', (event) => events.push(event));
    gateway.runner.reply = () => ({ status: 'failed', error: 'provider down' });
    const { job } = await client.request('cron.add', {
      job: { name: 'flaky', schedule: { kind: 'every', every: '10s' }, payload: { kind: 'agentTurn', message: 'try' } },
    });
    const start = gateway.clock.now();
    await gateway.advanceTo(start + 10_000, 1000);
    await gateway.advanceTo(start + 10_000 + ERROR_BACKOFF_MS[0] + 5_000, 1000);
    const runs = gateway.core.schedule.runs(job.id, 100).reverse();
    // Slot 1 failed; the slots inside the 30 s backoff were skipped; the next one ran and failed again.
    expect(runs.map((run) => run.status)).toEqual(['error', 'skipped', 'skipped', 'error', ...runs.slice(4).map(() => 'skipped')]);
    expect(runs[1]!.reason).toBe('error backoff after 1 failure(s) in a row');
    expect(runs[3]!.scheduledAt - runs[0]!.scheduledAt).toBe(ERROR_BACKOFF_MS[0]);
    const alerts = events.filter((e) => e.phase === 'alert');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.reason).toMatch(/failed 2 times in a row; last error: provider down/);
    expect((await client.request('schedule.list', {})).notices.join('\n')).toMatch(/"flaky".*failed 2 times in a row/);

    gateway.runner.reply = () => ({ status: 'replied', text: 'fine now' });
    await gateway.advanceTo(gateway.clock.now() + ERROR_BACKOFF_MS[1] + 20_000, 1000);
    const after = gateway.core.schedule.runs(job.id, 1)[0]!;
    expect(after.status).toBe('ok');
    expect(gateway.core.schedule.cron.get(job.id)!.state.consecutiveErrors).toBe(0);
  });

  it('blocks a job whose model is gone without starting a turn, and deletes a one-shot only after success', async () => {
    gateway = await startScheduleGateway({
      config: { models: { providers: { fake: { api: 'openai', baseUrl: 'http://127.0.0.1:9/v1', models: { m: {} } } } } },
    });
    const client = await gateway.connect();
    const { job } = await client.request('cron.add', {
      job: { name: 'pinned', schedule: { kind: 'at', at: '1m' }, payload: { kind: 'agentTurn', message: 'hi', model: 'fake/m' } },
    });
    const config = JSON.parse((await import('node:fs')).readFileSync(gateway.state.paths.config, 'utf8')) as { models: unknown };
    config.models = {};
    (await import('node:fs')).writeFileSync(gateway.state.paths.config, JSON.stringify(config));
    await gateway.core.config.reload();
    await gateway.advanceTo(gateway.clock.now() + 2 * MIN);
    const [blocked] = gateway.core.schedule.runs(job.id);
    expect(blocked).toMatchObject({ status: 'blocked' });
    expect(blocked!.reason).toMatch(/model "fake\/m" is not available/);
    expect(gateway.runner.turns).toEqual([]);
    expect(gateway.core.schedule.cron.get(job.id)!.state.blockedReason).toMatch(/fake\/m/);

    gateway.runner.reply = () => ({ status: 'failed', error: 'nope' });
    const { job: once } = await client.request('cron.add', {
      job: { name: 'once', schedule: { kind: 'at', at: '1m' }, payload: { kind: 'agentTurn', message: 'hi' } },
    });
    await gateway.advanceTo(gateway.clock.now() + 2 * MIN);
    expect(gateway.core.schedule.cron.get(once.id)).toBeDefined();
    gateway.runner.reply = () => ({ status: 'replied', text: 'done' });
    await gateway.advanceTo(gateway.clock.now() + ERROR_BACKOFF_MS[0] + MIN);
    expect(gateway.core.schedule.cron.get(once.id)).toBeUndefined();
    expect(gateway.core.schedule.runs(once.id).map((run) => run.status)).toEqual(['ok', 'error']);
  });
});
