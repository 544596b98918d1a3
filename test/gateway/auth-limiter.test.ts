import { describe, expect, it } from 'vitest';
import { AuthLimiter } from '../../source/gateway/auth-limiter.js';
import { ManualClock } from '../support/manual-clock.js';

describe('the failed-token limiter', () => {
  it('locks a source out for longer each time failures go on, and forgets once they stop', () => {
    const clock = new ManualClock();
    const limiter = new AuthLimiter({ maxFailures: 3, windowMs: 60_000, lockoutMs: 5_000, maxLockoutMs: 20_000, clock });
    const lockout = (): number => {
      for (let i = 0; i < 3; i += 1) limiter.recordFailure('127.0.0.1');
      return limiter.lockedFor('127.0.0.5');
    };
    expect(limiter.lockedFor('127.0.0.1')).toBe(0);
    expect(lockout()).toBe(5_000);
    clock.advance(5_000);
    expect(lockout()).toBe(10_000);
    clock.advance(10_000);
    expect(lockout()).toBe(20_000);
    clock.advance(20_000);
    expect(lockout()).toBe(20_000);
    // Another machine is counted apart; a quiet window resets the doubling.
    expect(limiter.lockedFor('10.0.0.7')).toBe(0);
    clock.advance(20_000 + 60_000);
    expect(lockout()).toBe(5_000);
  });
});
