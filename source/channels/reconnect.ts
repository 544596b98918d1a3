import type { Clock, TimerHandle } from '../config/index.js';

export interface ReconnectPolicyOptions {
  clock: Clock;
  firstDelayMs?: number;
  maxDelayMs?: number;
  maxAttempts?: number;
  /** 0..1 uniform source for jitter (tests pass a fixed one). */
  random?: () => number;
}

/**
 * SPEC "Gateway: channel reconnect": 5 s doubling to 5 min, with jitter so
 * many channels failing together do not retry in step, at most 10 attempts;
 * then the caller shows the channel in `error` with the reason.
 */
export class ReconnectPolicy {
  readonly #clock: Clock;
  readonly #first: number;
  readonly #max: number;
  readonly #maxAttempts: number;
  readonly #random: () => number;
  #attempts = 0;
  #timer: TimerHandle | undefined;

  constructor(options: ReconnectPolicyOptions) {
    this.#clock = options.clock;
    this.#first = options.firstDelayMs ?? 5_000;
    this.#max = options.maxDelayMs ?? 300_000;
    this.#maxAttempts = options.maxAttempts ?? 10;
    this.#random = options.random ?? Math.random;
  }

  get attempts(): number {
    return this.#attempts;
  }

  /** The delay before attempt `n` (1-based): the doubled base, minus up to 20% jitter, capped. */
  delayFor(attempt: number): number {
    const base = Math.min(this.#max, this.#first * 2 ** (attempt - 1));
    return Math.round(base * (1 - 0.2 * this.#random()));
  }

  /** Counts an attempt and returns its delay; undefined when the attempts are used up (the caller then reports `error`). */
  next(): number | undefined {
    if (this.#attempts >= this.#maxAttempts) return undefined;
    this.#attempts += 1;
    return this.delayFor(this.#attempts);
  }

  /** Like next(), but runs `attempt` on the clock after the delay; false when the attempts are used up. */
  schedule(attempt: () => void): boolean {
    const delay = this.next();
    if (delay === undefined) return false;
    this.cancel();
    this.#timer = this.#clock.setTimer(() => {
      this.#timer = undefined;
      attempt();
    }, delay);
    return true;
  }

  /** A successful connection starts the count again. */
  reset(): void {
    this.#attempts = 0;
    this.cancel();
  }

  cancel(): void {
    if (this.#timer) this.#clock.clearTimer(this.#timer);
    this.#timer = undefined;
  }
}
