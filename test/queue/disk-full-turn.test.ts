import { afterEach, describe, expect, it, vi } from 'vitest';
import { InstantRunner } from '../support/scripted-runner.js';
import { failingDisk } from '../sessions/failing-disk.js';
import { laneHarness, type LaneHarness } from './lane-harness.js';

let h: LaneHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('a full disk during a turn', () => {
  it('fails that message visibly, frees its lane and pool slot, and the next message runs once space returns', async () => {
    const disk = failingDisk();
    const runner = new InstantRunner();
    h = laneHarness(runner, { lanes: { main: 1 } }, { fs: disk });
    h.send('warm');
    await vi.waitFor(() => expect(h!.outcomes).toHaveLength(1));
    disk.mode = 'full';
    h.send('m1');
    h.send('m2', { key: 'agent:main:direct:other' });
    await vi.waitFor(() => expect(h!.outcomes).toHaveLength(3));
    for (const outcome of h.outcomes.slice(1)) {
      expect(outcome.status).toBe('failed');
      expect(outcome.reason).toMatch(/could not be (written|created) \(ENOSPC\); free disk space/);
    }
    expect(
      h.chat
        .filter((e) => e.state === 'error')
        .map((e) => e.runId)
        .sort(),
    ).toEqual(['run-m1', 'run-m2']);
    expect(h.lanes.runningCount()).toBe(0);
    expect(h.lanes.snapshot().pools.main).toEqual({ active: 0, limit: 1, waiting: 0 });
    disk.mode = 'ok';
    h.send('m3');
    await vi.waitFor(() => expect(h!.outcomes).toHaveLength(4));
    expect(h.outcomes[3]).toMatchObject({ messageId: 'm3', status: 'replied' });
  });

  it('a failure while recording the outcome still releases the lane (it used to wedge every later message)', async () => {
    const runner = new InstantRunner();
    let throwOnce = true;
    h = laneHarness(runner, { lanes: { main: 1 } });
    const record = h.outcomes.push.bind(h.outcomes);
    h.outcomes.push = (...items: LaneHarness['outcomes']) => {
      if (throwOnce) {
        throwOnce = false;
        throw new Error('ENOSPC: the journal refused the outcome');
      }
      return record(...items);
    };
    h.send('m1');
    h.send('m2', { key: 'agent:main:direct:other' });
    await vi.waitFor(() => expect(h!.outcomes.map((o) => o.messageId)).toEqual(['m2']));
    expect(h.lanes.snapshot().pools.main?.active).toBe(0);
  });
});
