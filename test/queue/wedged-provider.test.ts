import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TurnContext, TurnOutcome, TurnRunner } from '../../source/queue/index.js';
import { laneHarness, type LaneHarness } from './lane-harness.js';

let h: LaneHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/**
 * Turns of sessions named `wedged-*` wait on a provider that never answers
 * (as a retry loop does between silent attempts), through outsideSlot; the
 * others answer at once. `unwedge` lets one wedged provider answer.
 */
class WedgedProviderRunner implements TurnRunner {
  readonly started: string[] = [];
  private readonly wedges = new Map<string, () => void>();

  async run(turn: TurnContext): Promise<TurnOutcome> {
    this.started.push(turn.sessionKey);
    if (turn.sessionKey.includes('wedged')) {
      await turn.outsideSlot(
        () =>
          new Promise<void>((resolve) => {
            this.wedges.set(turn.sessionKey, resolve);
            turn.signal.addEventListener('abort', () => resolve(), { once: true });
          }),
      );
    }
    if (turn.signal.aborted) return { status: 'aborted', error: String(turn.signal.reason) };
    turn.session.append({ type: 'message', role: 'assistant', content: [{ type: 'text', text: 'ok' }], stopReason: 'stop' });
    return { status: 'replied', text: 'ok' };
  }

  unwedge(key: string): void {
    this.wedges.get(key)?.();
  }
}

const key = (name: string): string => `agent:main:direct:${name}`;

describe('a wedged provider', () => {
  it('with 4 wedged sessions a fifth session starts at once; a wedged turn takes its slot back fairly before it goes on', async () => {
    const runner = new WedgedProviderRunner();
    h = laneHarness(runner, { lanes: { main: 4 } });
    for (let i = 1; i <= 4; i += 1) h.send(`w${i}`, { key: key(`wedged-${i}`) });
    await vi.waitFor(() => expect(runner.started).toHaveLength(4));
    await vi.waitFor(() => expect(h!.lanes.snapshot().pools.main?.active).toBe(0));
    // No clock time passes: the fifth session does not wait for any timeout.
    h.send('f1', { key: key('fifth') });
    await vi.waitFor(() => expect(h!.outcomes.map((o) => o.messageId)).toEqual(['f1']));
    expect(h.clock.now() - Date.UTC(2026, 0, 1, 12)).toBe(0);

    // Fill the pool with four slow-but-live turns; a wedged turn that comes back must queue for a slot.
    const held: Array<() => void> = [];
    const live = new (class implements TurnRunner {
      run(_turn: TurnContext): Promise<TurnOutcome> {
        return new Promise((resolve) => held.push(() => resolve({ status: 'replied', text: 'ok' })));
      }
    })();
    const inner = runner.run.bind(runner);
    runner.run = (turn) => (turn.sessionKey.includes('busy') ? live.run(turn) : inner(turn));
    for (let i = 1; i <= 4; i += 1) h.send(`b${i}`, { key: key(`busy-${i}`) });
    await vi.waitFor(() => expect(held).toHaveLength(4));
    expect(h.lanes.snapshot().pools.main).toEqual({ active: 4, limit: 4, waiting: 0 });
    runner.unwedge(key('wedged-1'));
    await vi.waitFor(() => expect(h!.lanes.snapshot().pools.main?.waiting).toBe(1));
    expect(h.outcomes.map((o) => o.messageId)).toEqual(['f1']);
    held[0]!();
    // Sessions open concurrently, so which busy turn held[0] finished is not fixed; w1 follows it.
    await vi.waitFor(() => expect(h!.outcomes).toHaveLength(3));
    expect(h.outcomes.map((o) => o.messageId)).toEqual(['f1', expect.stringMatching(/^b[1-4]$/), 'w1']);
    expect(h.lanes.snapshot().pools.main?.active).toBe(3);
    for (const release of held.slice(1)) release();
    await vi.waitFor(() => expect(h!.outcomes).toHaveLength(6));
    expect(h.lanes.snapshot().pools.main).toEqual({ active: 0, limit: 4, waiting: 0 });
  });

  it('a wedged turn aborted while its slot is lent out ends without taking a slot it does not hold', async () => {
    const runner = new WedgedProviderRunner();
    h = laneHarness(runner, { lanes: { main: 1 } });
    h.send('w1', { key: key('wedged-1') });
    await vi.waitFor(() => expect(h!.lanes.snapshot().pools.main?.active).toBe(0));
    h.lanes.abort(key('wedged-1'));
    await vi.waitFor(() => expect(h!.outcomes).toEqual([expect.objectContaining({ messageId: 'w1', status: 'aborted' })]));
    expect(h.lanes.snapshot().pools.main).toEqual({ active: 0, limit: 1, waiting: 0 });
    h.send('n1', { key: key('next') });
    await vi.waitFor(() => expect(h!.outcomes).toHaveLength(2));
    expect(h.lanes.snapshot().pools.main?.active).toBe(0);
  });
});
