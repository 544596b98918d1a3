import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ClawError } from '../../source/protocol/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

let gateway: TestGateway | undefined;
let state: TempState | undefined;
afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
  state?.cleanup();
  state = undefined;
});

const job = (overrides: Record<string, unknown>): never =>
  ({ name: 'j', schedule: { kind: 'every', every: '1h' }, payload: { kind: 'agentTurn', message: 'hi' }, ...overrides }) as never;

async function refusal(promise: Promise<unknown>): Promise<ClawError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ClawError);
  return error as ClawError;
}

describe('cron refuses bad input with the reason and the fix', () => {
  it('names what is wrong for each bad job', async () => {
    gateway = await startTestGateway({ core: {} });
    const client = await gateway.connect();
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ schedule: { kind: 'cron', expr: '0 8 * *' } }, /cron expression "0 8 \* \*" is not valid.*five fields/],
      [{ schedule: { kind: 'cron', expr: '0 8 * * *', tz: 'Mars/Olympus' } }, /"Mars\/Olympus" is not a time zone.*IANA/],
      [{ schedule: { kind: 'at', at: '2020-01-01T00:00:00Z' } }, /in the past.*later time/],
      [{ schedule: { kind: 'every', every: '0' } }, /too short/],
      [{ schedule: { kind: 'every', every: 'often' } }, /not a duration.*"90s", "20m"/],
      [{ agentId: 'ghost' }, /Unknown agent "ghost".*Known agents: main/],
      [{ sessionTarget: 'main' }, /agentTurn payload runs in its own cron:<jobId> session.*systemEvent/],
      [{ payload: { kind: 'systemEvent', text: 'x' }, sessionTarget: 'isolated' }, /systemEvent payload goes into the main session/],
    ];
    for (const [overrides, message] of cases) {
      const error = await refusal(client.request('cron.add', { job: job(overrides) }));
      expect(error.code, JSON.stringify(overrides)).toBe('bad_request');
      expect(error.message).toMatch(message);
    }
    expect((await client.request('schedule.list', {})).jobs).toEqual([]);
    const missing = await refusal(client.request('schedule.runs', { id: 'nope' }));
    expect(missing.code).toBe('not_found');
  });

  it('keeps the last good jobs when jobs.json is corrupt, and says so', async () => {
    state = makeTempState();
    gateway = await startTestGateway({ state, core: {} });
    let client = await gateway.connect();
    const added = (await client.request('cron.add', { job: job({ name: 'keeper' }) })).job;
    await gateway.stop();
    writeFileSync(join(state.paths.cron, 'jobs.json'), '{"version":1,"jobs":[{"id":');
    gateway = await startTestGateway({ state, core: {} });
    client = await gateway.connect();
    const overview = await client.request('schedule.list', {});
    expect(overview.jobs.map((j) => j.id)).toEqual([added.id]);
    expect(overview.notices.join('\n')).toMatch(/jobs\.json is unreadable \(not JSON.*running the last good copy \(1 job\(s\)\)/);
  });
});
