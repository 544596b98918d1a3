import { systemClock, type Clock } from '../config/index.js';

/** Remembers results of mutating requests by idempotency key for a while. */
export class IdempotencyCache {
  private readonly entries = new Map<string, { expires: number; result: Promise<unknown> }>();

  constructor(
    private readonly ttlMs = 5 * 60_000,
    private readonly clock: Pick<Clock, 'now'> = systemClock,
  ) {}

  /** Returns the earlier result for `key`, or runs `work` and remembers it. */
  run(key: string, work: () => Promise<unknown>): Promise<unknown> {
    const now = this.clock.now();
    this.prune(now);
    const hit = this.entries.get(key);
    if (hit) return hit.result;
    const result = work();
    this.entries.set(key, { expires: now + this.ttlMs, result });
    // A failed attempt may be retried with the same key.
    result.catch(() => this.entries.delete(key));
    return result;
  }

  private prune(now: number): void {
    for (const [key, entry] of this.entries) {
      if (entry.expires > now) break;
      this.entries.delete(key);
    }
  }
}
