import { afterEach, describe, expect, it } from 'vitest';
import { ClawError } from '../../source/protocol/index.js';
import { startScheduleGateway, type ScheduleGateway } from './schedule-harness.js';

let gateway: ScheduleGateway | undefined;
afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
});

const KEY = 'agent:main:main';

describe('/cron and /heartbeat', () => {
  it('list jobs, run one, and show, pause and resume the heartbeat', async () => {
    gateway = await startScheduleGateway();
    const client = await gateway.connect();
    const command = async (text: string): Promise<string> => (await client.request('commands.run', { sessionKey: KEY, text })).reply;
    expect(await command('/cron')).toMatch(/No cron jobs/);
    const { job } = await client.request('cron.add', {
      job: { name: 'water', schedule: { kind: 'every', every: '2h' }, payload: { kind: 'systemEvent', text: 'drink water' } },
    });
    expect(await command('/cron')).toMatch(new RegExp(`● water \\(${job.id}\\) next 2026-01-01T14:00Z · last —`));
    expect(await command(`/cron run ${job.id}`)).toMatch(new RegExp(`started ${job.id}`));
    await gateway.quiesce();
    expect(gateway.runner.turns.map((t) => t.text)).toEqual(['[cron: water] drink water']);
    expect(await command('/cron')).toMatch(/last ok/);

    expect(await command('/heartbeat')).toMatch(/^heartbeat main: on · next 2026-01-01T12:30:00.000Z · last — · 0 tokens today$/);
    expect(await command('/heartbeat pause')).toBe('heartbeat of main paused');
    expect(await command('/heartbeat')).toMatch(/heartbeat main: paused/);
    expect(await command('/heartbeat resume')).toBe('heartbeat of main resumed');
    const bad = await client.request('commands.run', { sessionKey: KEY, text: '/heartbeat sometimes' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(bad).toBeInstanceOf(ClawError);
    expect((bad as ClawError).message).toMatch(/Use \/heartbeat, \/heartbeat now/);
    expect((await client.request('commands.list', {})).commands.map((c) => c.name)).toEqual(expect.arrayContaining(['cron', 'heartbeat']));
  });
});
