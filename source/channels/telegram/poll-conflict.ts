import type { Clock } from '../../config/index.js';

/** Shown while another poller holds the bot token (Telegram answers 409 to the older of two getUpdates). */
export const CONFLICT_REASON = 'another claw gateway or bot client is polling this token; stop it or use a different bot';

export interface PollConflictOptions {
  clock: Clock;
  /** The reconnect policy's first delay: the reclaim window scales with it. */
  firstDelayMs: number;
  /** Reclaims allowed within the window before this poller yields too. */
  burst?: number;
  /** How long after the last 409 a completed poll still does not reset the reconnect count. */
  quietMs?: number;
}

/**
 * Decides what a 409 from getUpdates means for this poller. Telegram ends
 * the *older* of two concurrent polls, so the gateway that was polling first
 * is the one told. It polls again at once (reclaims the token), which makes
 * the newcomer's poll end in 409 before it completed any: the newcomer
 * yields (error + the reconnect policy's backoff). A reclaim needs a poll
 * completed since the last backoff, and a burst of them within a short
 * window means two established pollers are fighting, so this one yields
 * as well. While contested, a completed poll does not reset the reconnect
 * count, so the loser's attempts run out instead of fighting forever.
 */
export class PollConflict {
  readonly #clock: Clock;
  readonly #windowMs: number;
  readonly #burst: number;
  readonly #quietMs: number;
  #held = false;
  #reclaims: number[] = [];
  #lastConflictAt: number | undefined;

  constructor(options: PollConflictOptions) {
    this.#clock = options.clock;
    // With 5 s doubling, a newcomer's retries reach this poller at most 5 times a minute.
    this.#windowMs = options.firstDelayMs * 12;
    this.#burst = options.burst ?? 5;
    this.#quietMs = options.quietMs ?? 600_000;
  }

  /** A getUpdates completed: this poller holds the token. */
  polled(): void {
    this.#held = true;
  }

  /** A 409: poll again at once (`reclaim`), or show the error and back off (`yield`). */
  conflict(): 'reclaim' | 'yield' {
    const now = this.#clock.now();
    this.#lastConflictAt = now;
    this.#reclaims = this.#reclaims.filter((at) => now - at < this.#windowMs);
    if (this.#held && this.#reclaims.length < this.#burst) {
      this.#reclaims.push(now);
      return 'reclaim';
    }
    this.#held = false;
    return 'yield';
  }

  /** Whether a 409 came recently enough that a completed poll proves nothing yet. */
  contested(): boolean {
    return this.#lastConflictAt !== undefined && this.#clock.now() - this.#lastConflictAt < this.#quietMs;
  }
}
