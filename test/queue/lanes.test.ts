import { afterEach, describe, expect, it, vi } from 'vitest';
import { noModelRunner } from '../../source/queue/index.js';
import { ScriptedRunner } from '../support/scripted-runner.js';
import { laneHarness, type LaneHarness } from './lane-harness.js';

let h: LaneHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const waitFor = <T>(fn: () => T): Promise<T> => vi.waitFor(fn, { timeout: 10_000, interval: 5 });

describe('lanes', () => {
  it('runs one turn per session at a time, in order, and caps the main pool', async () => {
    const runner = new ScriptedRunner();
    h = laneHarness(runner, { lanes: { main: 2 } });
    expect(h.send('a1', { key: 'agent:main:direct:a' })).toBe('started');
    expect(h.send('a2', { key: 'agent:main:direct:a' })).toBe('queued');
    expect(h.send('b1', { key: 'agent:main:direct:b' })).toBe('started');
    expect(h.send('c1', { key: 'agent:main:direct:c' })).toBe('queued');
    // Sessions open concurrently, so runs of different lanes may reach the runner in either order.
    const runningIds = (): string[] =>
      runner
        .running()
        .map((t) => t.runId)
        .sort();
    await waitFor(() => expect(runningIds()).toEqual(['run-a1', 'run-b1']));
    expect(h.lanes.snapshot().pools.main).toEqual({ active: 2, limit: 2, waiting: 1 });
    runner.reply('run-a1');
    // The freed slot goes to the lane that waited longest (c), not to a's next message.
    await waitFor(() => expect(runningIds()).toEqual(['run-b1', 'run-c1']));
    runner.reply('run-b1');
    await waitFor(() => expect(runningIds()).toEqual(['run-a2', 'run-c1']));
    runner.reply('run-c1');
    runner.reply('run-a2');
    await waitFor(() => expect(h!.outcomes).toHaveLength(4));
    expect(runner.maxActive).toBe(2);
    expect(await h.userTexts('agent:main:direct:a')).toEqual(['a1', 'a2']);
    expect(h.outcomes.every((o) => o.status === 'replied')).toBe(true);
  });

  it('collect merges the backlog into one turn after the debounce', async () => {
    const runner = new ScriptedRunner();
    h = laneHarness(runner, { mode: 'collect', debounceMs: 1000 });
    h.send('m1');
    h.send('m2');
    h.send('m3');
    await waitFor(() => expect(runner.turns).toHaveLength(1));
    runner.reply('run-m1');
    await waitFor(() => expect(h!.outcomes).toHaveLength(1));
    h.clock.advance(500);
    h.send('m4');
    h.clock.advance(999);
    expect(runner.turns).toHaveLength(1);
    h.clock.advance(1);
    await waitFor(() => expect(runner.turns).toHaveLength(2));
    expect(runner.turns[1]!.messages.map((m) => m.messageId)).toEqual(['m2', 'm3', 'm4']);
    runner.reply('run-m2');
    await waitFor(() => expect(h!.outcomes).toHaveLength(4));
    expect(h.outcomes.find((o) => o.messageId === 'm4')).toMatchObject({ status: 'replied', turnRunId: 'run-m2' });
    expect(h.agent.filter((e) => e.stream === 'lifecycle' && e.detail === 'merged into run run-m2').map((e) => e.runId)).toEqual(['run-m3', 'run-m4']);
    expect(await h.userTexts()).toEqual(['m1', 'm2', 'm3', 'm4']);
  });

  it('steer hands messages to the running turn; untaken ones run next', async () => {
    const runner = new ScriptedRunner();
    h = laneHarness(runner);
    h.send('s1');
    await waitFor(() => expect(runner.turns).toHaveLength(1));
    expect(h.send('s2', { mode: 'steer' })).toBe('queued');
    expect(runner.turns[0]!.takeSteered().map((m) => m.messageId)).toEqual(['s2']);
    expect(runner.turns[0]!.takeSteered()).toEqual([]);
    h.send('s3', { mode: 'steer' });
    runner.reply('run-s1');
    await waitFor(() => expect(runner.turns).toHaveLength(2));
    expect(runner.turns[1]!.messages.map((m) => m.messageId)).toEqual(['s3']);
    runner.reply('run-s3');
    await waitFor(() => expect(h!.outcomes).toHaveLength(3));
    expect(h.outcomes.find((o) => o.messageId === 's2')).toMatchObject({ status: 'replied', turnRunId: 'run-s1' });
    expect(await h.userTexts()).toEqual(['s1', 's2', 's3']);
  });

  it('interrupt aborts the running turn and runs the new message next', async () => {
    const runner = new ScriptedRunner();
    h = laneHarness(runner);
    h.send('i1');
    h.send('i2');
    await waitFor(() => expect(runner.turns).toHaveLength(1));
    h.send('i3', { mode: 'interrupt' });
    await waitFor(() => expect(runner.turns).toHaveLength(2));
    expect(runner.turns[0]!.signal.aborted).toBe(true);
    expect(runner.turns[1]!.messages[0]!.messageId).toBe('i3');
    expect(h.outcomes[0]).toMatchObject({ messageId: 'i1', status: 'aborted' });
    expect(h.chat).toContainEqual(expect.objectContaining({ runId: 'run-i1', state: 'aborted' }));
    runner.reply('run-i3');
    await waitFor(() => expect(runner.turns).toHaveLength(3));
    expect(runner.turns[2]!.messages[0]!.messageId).toBe('i2');
  });

  it('cap with drop=new refuses the newest and tells its sender', async () => {
    const runner = new ScriptedRunner();
    h = laneHarness(runner, { cap: 2, drop: 'new' });
    h.send('n1');
    h.send('n2');
    h.send('n3');
    expect(h.send('n4')).toBe('dropped');
    expect(h.outcomes).toEqual([expect.objectContaining({ messageId: 'n4', status: 'dropped' })]);
    expect(h.chat).toContainEqual(expect.objectContaining({ runId: 'run-n4', state: 'error', message: expect.stringMatching(/full \(2 waiting\).*not run/) }));
    expect(h.lanes.laneInfo('agent:main:main')).toEqual({ running: true, queued: 2 });
  });

  it('cap with drop=old drops the oldest queued message and tells its sender', async () => {
    const runner = new ScriptedRunner();
    h = laneHarness(runner, { cap: 2, drop: 'old' });
    for (const id of ['o1', 'o2', 'o3', 'o4']) h.send(id);
    expect(h.outcomes).toEqual([expect.objectContaining({ messageId: 'o2', status: 'dropped' })]);
    expect(h.chat).toContainEqual(expect.objectContaining({ runId: 'run-o2', state: 'error' }));
    await waitFor(() => expect(runner.turns).toHaveLength(1));
    runner.reply('run-o1');
    await waitFor(() => expect(runner.turns).toHaveLength(2));
    expect(runner.turns[1]!.messages[0]!.messageId).toBe('o3');
  });

  it('cap with drop=summarize drops the oldest but gives the next turn a summary of it', async () => {
    const runner = new ScriptedRunner();
    h = laneHarness(runner, { cap: 1, drop: 'summarize' });
    h.send('first');
    h.send('second');
    h.send('third');
    expect(h.outcomes).toEqual([expect.objectContaining({ messageId: 'second', status: 'dropped' })]);
    await waitFor(() => expect(runner.turns).toHaveLength(1));
    runner.reply('run-first');
    await waitFor(() => expect(runner.turns).toHaveLength(2));
    const texts = await h.userTexts();
    expect(texts[1]).toMatch(/1 earlier message\(s\) were dropped[\s\S]*- second/);
    expect(texts[2]).toBe('third');
  });

  it('the watchdog aborts a turn without progress, frees the lane and keeps the queue', async () => {
    const runner = new ScriptedRunner();
    h = laneHarness(runner, { watchdogSeconds: 60 });
    h.send('w1');
    h.send('w2');
    await waitFor(() => expect(runner.turns).toHaveLength(1));
    h.clock.advance(59_000);
    runner.turns[0]!.progress();
    h.clock.advance(59_000);
    expect(runner.turns[0]!.signal.aborted).toBe(false);
    h.clock.advance(1_000);
    expect(runner.turns[0]!.signal.aborted).toBe(true);
    expect(h.outcomes[0]).toMatchObject({ messageId: 'w1', status: 'aborted', reason: expect.stringMatching(/no progress for 60s/) });
    await waitFor(() => expect(runner.turns).toHaveLength(2));
    expect(runner.turns[1]!.messages[0]!.messageId).toBe('w2');
  });

  it('the default runner fails visibly, saying what to configure', async () => {
    h = laneHarness(noModelRunner);
    h.send('hello');
    await waitFor(() => expect(h!.outcomes).toHaveLength(1));
    expect(h.outcomes[0]!.status).toBe('failed');
    expect(h.chat).toContainEqual(
      expect.objectContaining({
        state: 'error',
        message: expect.stringMatching(/No model configured/),
        hint: expect.stringMatching(/agents\.defaults\.model/),
      }),
    );
    expect(await h.userTexts()).toEqual(['hello']);
  });

  it('a runner that throws counts as failed and the next message still runs', async () => {
    let calls = 0;
    h = laneHarness({
      async run() {
        calls += 1;
        if (calls === 1) throw new Error('boom');
        return { status: 'replied', text: 'fine' };
      },
    });
    h.send('t1');
    h.send('t2');
    await waitFor(() => expect(h!.outcomes).toHaveLength(2));
    expect(h.outcomes.map((o) => o.status)).toEqual(['failed', 'replied']);
    expect(h.chat).toContainEqual(expect.objectContaining({ runId: 'run-t1', state: 'error', message: 'boom' }));
    expect(h.chat).toContainEqual(expect.objectContaining({ runId: 'run-t2', state: 'final', text: 'fine' }));
  });

  it('abort stops only the running turn; cron and subagent keys use their own pools', async () => {
    const runner = new ScriptedRunner();
    h = laneHarness(runner, { lanes: { main: 1, cron: 1, subagent: 8 } });
    h.send('m', { key: 'agent:main:main' });
    h.send('c', { key: 'cron:nightly' });
    h.send('s', { key: 'agent:main:subagent:x1' });
    await waitFor(() => expect(runner.running()).toHaveLength(3));
    expect(h.lanes.abort('agent:main:main', 'run-other')).toEqual({ aborted: false });
    expect(h.lanes.abort('agent:main:main')).toEqual({ aborted: true, runId: 'run-m' });
    await waitFor(() => expect(h!.outcomes).toContainEqual(expect.objectContaining({ messageId: 'm', status: 'aborted' })));
  });
});
