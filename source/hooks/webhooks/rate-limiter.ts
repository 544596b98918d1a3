import type { Clock } from '../../config/index.js';

const WINDOW_MS = 60_000;

/** A fixed one-minute window per route: cheap, and the Retry-After it gives is exact. */
export class RateLimiter {
  readonly #windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly clock: Clock) {}

  /** Undefined when allowed; otherwise the seconds until the route accepts again. */
  take(key: string, perMinute: number): number | undefined {
    const now = this.clock.now();
    let window = this.#windows.get(key);
    if (!window || now - window.start >= WINDOW_MS) {
      window = { start: now, count: 0 };
      this.#windows.set(key, window);
    }
    if (window.count >= perMinute) return Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000));
    window.count += 1;
    return undefined;
  }
}
