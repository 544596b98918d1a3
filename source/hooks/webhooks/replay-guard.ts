import type { Clock } from '../../config/index.js';

/**
 * Signed message ids seen within the signature tolerance: a replay of a
 * captured request is refused even though its signature is valid. Older ids
 * are forgotten because their timestamp alone refuses them.
 */
export class ReplayGuard {
  readonly #seen = new Map<string, number>();

  constructor(
    private readonly clock: Clock,
    private readonly windowMs: () => number,
  ) {}

  /** False when the id was already seen; records it otherwise. */
  firstSight(id: string): boolean {
    const now = this.clock.now();
    const cutoff = now - 2 * this.windowMs();
    for (const [seen, at] of this.#seen) {
      if (at >= cutoff) break;
      this.#seen.delete(seen);
    }
    if (this.#seen.has(id)) return false;
    this.#seen.set(id, now);
    return true;
  }
}
