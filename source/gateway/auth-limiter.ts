export interface AuthLimiterOptions {
  maxFailures: number;
  windowMs: number;
  lockoutMs: number;
  now?: () => number;
}

/** Counts failed auth per address: too many within the window locks it out. */
export class AuthLimiter {
  private readonly failures = new Map<string, number[]>();
  private readonly lockedUntil = new Map<string, number>();
  private readonly now: () => number;

  constructor(private readonly options: AuthLimiterOptions = { maxFailures: 10, windowMs: 60_000, lockoutMs: 300_000 }) {
    this.now = options.now ?? Date.now;
  }

  /** Milliseconds left on a lockout, or 0 when the address may try. */
  lockedFor(address: string): number {
    const until = this.lockedUntil.get(address);
    if (until === undefined) return 0;
    const left = until - this.now();
    if (left <= 0) {
      this.lockedUntil.delete(address);
      return 0;
    }
    return left;
  }

  recordFailure(address: string): void {
    const now = this.now();
    const recent = (this.failures.get(address) ?? []).filter((t) => now - t < this.options.windowMs);
    recent.push(now);
    if (recent.length >= this.options.maxFailures) {
      this.lockedUntil.set(address, now + this.options.lockoutMs);
      this.failures.delete(address);
    } else {
      this.failures.set(address, recent);
    }
  }

  recordSuccess(address: string): void {
    this.failures.delete(address);
  }
}
