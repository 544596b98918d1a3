import { createHash } from 'node:crypto';
import type { Clock } from '../config/index.js';
import type { ProviderErrorKind } from './errors.js';
import type { AuthProfile, CooldownStatus } from './types.js';

export type { CooldownStatus } from './types.js';

/** Consecutive failed turns of one key or model: 30 s, then 1 min, then 5 min. */
export const COOLDOWN_STEPS_MS = [30_000, 60_000, 300_000] as const;
/** A key out of credit is tried again this often, so topping the account up lifts it without a restart. */
export const BILLING_PROBE_MS = 5 * 60_000;
/** A model the provider does not serve (HTTP 404): a configuration error, not a passing fault. */
export const MISSING_MODEL_COOLDOWN_MS = 10 * 60_000;
/** A model still failing with 5xx after its retries, while a fallback answers. */
export const SERVER_COOLDOWN_MS = 30_000;

/**
 * What a fault cools: a credential (refused, out of credit, rate-limited
 * account-wide) or a model (overloaded, not served, failing). A key is
 * identified by its value, so a new key in the same slot starts fresh.
 */
export interface CooldownTarget {
  scope: 'key' | 'model';
  provider: string;
  /** For a key its profile id (`env:OPENAI_API_KEY`, `file:work`); for a model its ref. */
  label: string;
  id: string;
}

/** A key, or with `model` the key's use of that one model (a rate limit that names the model). */
export function keyTarget(provider: string, profile: AuthProfile, model?: string): CooldownTarget {
  const secret = profile.apiKey ?? profile.id;
  const fingerprint = createHash('sha256').update(secret).digest('hex').slice(0, 16);
  const id = `key\u0000${provider}\u0000${fingerprint}`;
  if (model === undefined) return { scope: 'key', provider, label: profile.id, id };
  return { scope: 'key', provider, label: `${profile.id} for ${model}`, id: `${id}\u0000${model}` };
}

export function modelTarget(ref: string): CooldownTarget {
  return { scope: 'model', provider: ref.slice(0, ref.indexOf('/')), label: ref, id: `model\u0000${ref}` };
}

export interface CoolOptions {
  /** A fixed length instead of the ladder (billing probe, a missing model, Retry-After). */
  durationMs?: number;
  /** False for the second fault of one target in one turn: a failed turn is one step of the ladder. */
  escalate: boolean;
}

interface State extends CooldownStatus {
  failures: number;
}

/** Cooldowns of keys and models; they live as long as the gateway (one per providers object). */
export class Cooldowns {
  readonly #states = new Map<string, State>();

  constructor(
    private readonly clock: Pick<Clock, 'now'>,
    private readonly onChange: (cooldowns: CooldownStatus[]) => void = () => undefined,
  ) {}

  #changed(): void {
    this.onChange(this.list());
  }

  fail(target: CooldownTarget, kind: ProviderErrorKind, reason: string, options: CoolOptions): CooldownStatus {
    const previous = this.#states.get(target.id);
    const failures = (previous?.failures ?? 0) + (options.escalate || !previous ? 1 : 0);
    const step = COOLDOWN_STEPS_MS[Math.min(failures, COOLDOWN_STEPS_MS.length) - 1] ?? COOLDOWN_STEPS_MS[0];
    const now = this.clock.now();
    const length = options.durationMs ?? (kind === 'billing' ? BILLING_PROBE_MS : step);
    const until = Math.max(now + length, options.escalate ? 0 : (previous?.until ?? 0));
    const state: State = { scope: target.scope, provider: target.provider, label: target.label, kind, reason, until, failures };
    this.#states.set(target.id, state);
    this.#changed();
    return state;
  }

  succeed(target: CooldownTarget): void {
    if (this.#states.delete(target.id)) this.#changed();
  }

  /** The active cooldown, or undefined when the key or model may be used. */
  status(target: CooldownTarget): CooldownStatus | undefined {
    const state = this.#states.get(target.id);
    if (!state || state.until <= this.clock.now()) return undefined;
    return state;
  }

  /** Every active cooldown, soonest end first. */
  list(): CooldownStatus[] {
    const now = this.clock.now();
    return [...this.#states.values()]
      .filter((state) => state.until > now)
      .sort((a, b) => a.until - b.until)
      .map(({ failures: _failures, ...status }) => status);
  }

  /**
   * Lifts the cooldowns that match `which` (a provider, a model ref or a key's
   * profile id), or all of them; returns what was lifted.
   */
  reset(which?: string): CooldownStatus[] {
    const lifted: CooldownStatus[] = [];
    for (const [id, state] of this.#states) {
      const matches =
        which === undefined ||
        which === state.provider ||
        which === state.label ||
        state.label.startsWith(`${which} for `) ||
        state.label.endsWith(` for ${which}`);
      if (!matches) continue;
      this.#states.delete(id);
      if (state.until > this.clock.now()) lifted.push(state);
    }
    if (lifted.length > 0) this.#changed();
    return lifted;
  }
}
