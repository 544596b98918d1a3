import { systemClock, type Clock } from '../config/index.js';

export interface AuthLimiterOptions {
  maxFailures: number;
  windowMs: number;
  /** The first lockout; each one that follows while failures go on is twice as long, up to `maxLockoutMs`. */
  lockoutMs: number;
  maxLockoutMs: number;
  clock?: Pick<Clock, 'now'>;
}

/**
 * The bucket failed attempts count in. Every loopback address is one
 * bucket: a local attacker picking 127.0.0.9 after 127.0.0.1 is the same
 * machine. Remote addresses count one each.
 */
export function limiterKey(address: string): string {
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  return plain === '::1' || /^127\./.test(plain) ? 'loopback' : plain;
}

/**
 * Counts failed auth per key (see limiterKey): too many within the window
 * lock that key out for wrong tokens, longer each time (exponential). The
 * gateway checks a presented token first, so the right one is never refused.
 */
export class AuthLimiter {
  private readonly failures = new Map<string, number[]>();
  private readonly lockedUntil = new Map<string, number>();
  /** Lockouts in a row per key; forgotten once a window passes without a failure after the last one. */
  private readonly streak = new Map<string, { count: number; lastAt: number }>();
  private readonly clock: Pick<Clock, 'now'>;

  constructor(private readonly options: AuthLimiterOptions = { maxFailures: 10, windowMs: 60_000, lockoutMs: 5_000, maxLockoutMs: 300_000 }) {
    this.clock = options.clock ?? systemClock;
  }

  /** Milliseconds left on a lockout, or 0 when the address may try. */
  lockedFor(address: string): number {
    address = limiterKey(address);
    const until = this.lockedUntil.get(address);
    if (until === undefined) return 0;
    const left = until - this.clock.now();
    if (left <= 0) {
      this.lockedUntil.delete(address);
      return 0;
    }
    return left;
  }

  recordFailure(address: string): void {
    address = limiterKey(address);
    const now = this.clock.now();
    const recent = (this.failures.get(address) ?? []).filter((t) => now - t < this.options.windowMs);
    recent.push(now);
    if (recent.length >= this.options.maxFailures) {
      const last = this.streak.get(address);
      const count = last && now - last.lastAt < this.options.windowMs ? last.count + 1 : 1;
      const lockout = Math.min(this.options.maxLockoutMs, this.options.lockoutMs * 2 ** (count - 1));
      this.streak.set(address, { count, lastAt: now + lockout });
      this.lockedUntil.set(address, now + lockout);
      this.failures.delete(address);
    } else {
      this.failures.set(address, recent);
    }
  }
}
