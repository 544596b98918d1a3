import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startGatewayChild, type GatewayChild } from '../support/gateway-child.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

const KILLS = 20;

let state: TempState | undefined;
let child: GatewayChild | undefined;
afterEach(async () => {
  await child?.kill9().catch(() => undefined);
  child = undefined;
  state?.cleanup();
  state = undefined;
});

interface Line {
  type: 'started' | 'dispatched' | 'finished';
  scheduledAt: number;
  status?: string;
  attempt?: number;
}

function lines(state: TempState, jobId: string): Line[] {
  return readFileSync(join(state.paths.cron, 'runs', `${jobId}.jsonl`), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Line);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('cron across kill -9', () => {
  it(`accounts for every slot exactly once over ${KILLS} kills at random points`, async () => {
    state = makeTempState();
    const env = { CLAW_TEST_RUNNER: 'echo' };
    child = await startGatewayChild(state, env);
    const client = await child.connect();
    const skip = (
      await client.request('cron.add', { job: { name: 'tick', schedule: { kind: 'every', every: '1s' }, payload: { kind: 'agentTurn', message: 'tick' } } })
    ).job;
    const once = (
      await client.request('cron.add', {
        job: { name: 'catch up', schedule: { kind: 'every', every: '2s' }, payload: { kind: 'agentTurn', message: 'tock' }, catchUp: 'once' },
      })
    ).job;
    for (let kill = 0; kill < KILLS; kill += 1) {
      // Random points: before, during and after slots (a slot is due every 1 s, a turn takes a few ms).
      await sleep(200 + Math.floor(Math.random() * 1800));
      await child.kill9();
      child = await startGatewayChild(state, env);
    }
    await sleep(1500);
    // Stop scheduling, so the starts below can only settle what the kills left open, never open a new slot.
    const last = await child.connect();
    for (const job of [skip, once]) await last.request('cron.update', { id: job.id, patch: { enabled: false } });
    last.close();
    await child.stop();
    // One more start settles a run the stop may have left open (a slot that began just before it was disabled), then a clean stop.
    child = await startGatewayChild(state, env);
    await child.stop();
    child = undefined;

    for (const job of [skip, once]) {
      const log = lines(state, job.id);
      const terminal = new Map<number, string[]>();
      const starts = new Map<number, number>();
      for (const line of log) {
        if (line.type === 'started') starts.set(line.scheduledAt, (starts.get(line.scheduledAt) ?? 0) + 1);
        if (line.type === 'finished') terminal.set(line.scheduledAt, [...(terminal.get(line.scheduledAt) ?? []), line.status!]);
      }
      // Never started twice, never finished twice, and every started slot finished.
      expect(
        [...starts.entries()].filter(([, count]) => count > 1),
        job.name,
      ).toEqual([]);
      expect(
        [...terminal.entries()].filter(([, statuses]) => statuses.length > 1),
        job.name,
      ).toEqual([]);
      for (const slot of starts.keys()) expect(terminal.has(slot), `${job.name} slot ${slot} started but never settled`).toBe(true);
      // No gaps: every slot from the first to the last is in the log (ok, interrupted, missed or skipped).
      const slots = [...terminal.keys()].sort((a, b) => a - b);
      const step = job.name === 'tick' ? 1000 : 2000;
      for (let i = 1; i < slots.length; i += 1) expect(slots[i]! - slots[i - 1]!, `${job.name} gap after ${slots[i - 1]}`).toBe(step);
      const statuses = new Set([...terminal.values()].flat());
      expect(statuses.has('ok')).toBe(true);
      // Each restart takes longer than 1 s, so the skip job always misses slots; the catch-up job may run every one it missed.
      if (job.catchUp === 'skip') expect(statuses.has('missed')).toBe(true);
      expect(
        [...statuses].every((status) => ['ok', 'interrupted', 'missed', 'skipped'].includes(status)),
        [...statuses].join(),
      ).toBe(true);
    }
  }, 240_000);
});
