import { describe, expect, it } from 'vitest';
import { ReconnectPolicy } from '../../source/channels/index.js';
import { ManualClock } from '../support/manual-clock.js';

describe('channel reconnect policy', () => {
  it('waits 5 s doubling to 5 min, jittered down by at most 20%, 10 attempts then gives up', () => {
    const clock = new ManualClock();
    const top = new ReconnectPolicy({ clock, random: () => 0 });
    const delays = Array.from({ length: 10 }, () => top.next());
    expect(delays).toEqual([5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000, 300_000]);
    expect(top.next()).toBeUndefined();
    const low = new ReconnectPolicy({ clock, random: () => 1 });
    expect(low.next()).toBe(4_000);
    const random = new ReconnectPolicy({ clock });
    for (let i = 1; i <= 10; i++) {
      const delay = random.next()!;
      const base = Math.min(300_000, 5_000 * 2 ** (i - 1));
      expect(delay).toBeGreaterThanOrEqual(base * 0.8);
      expect(delay).toBeLessThanOrEqual(base);
    }
  });

  it('runs the attempt on the clock and starts counting again after a success', () => {
    const clock = new ManualClock();
    const policy = new ReconnectPolicy({ clock, random: () => 0 });
    let attempts = 0;
    expect(policy.schedule(() => attempts++)).toBe(true);
    clock.advance(4_999);
    expect(attempts).toBe(0);
    clock.advance(1);
    expect(attempts).toBe(1);
    policy.schedule(() => attempts++);
    clock.advance(10_000);
    expect(attempts).toBe(2);
    policy.reset();
    expect(policy.attempts).toBe(0);
    expect(policy.next()).toBe(5_000);
  });
});
