import type { Clock } from '../config/index.js';
import type { ProviderErrorKind } from './errors.js';

/** Consecutive auth/rate-limit/overload failures of one profile: 30 s, then 1 min, then 5 min. */
export const COOLDOWN_STEPS_MS = [30_000, 60_000, 300_000] as const;
/** Billing and quota errors do not clear in minutes. */
export const BILLING_COOLDOWN_MS = 5 * 60 * 60 * 1000;

interface ProfileState {
  failures: number;
  until: number;
  kind: ProviderErrorKind;
}

export interface CooldownStatus {
  until: number;
  kind: ProviderErrorKind;
}

/** Per (provider, auth profile) cooldowns; lives as long as the gateway. */
export class ProfileCooldowns {
  private readonly states = new Map<string, ProfileState>();

  constructor(private readonly clock: Pick<Clock, 'now'>) {}

  fail(provider: string, profile: string, kind: ProviderErrorKind): CooldownStatus {
    const key = `${provider}\u0000${profile}`;
    const failures = (this.states.get(key)?.failures ?? 0) + 1;
    const step = COOLDOWN_STEPS_MS[Math.min(failures, COOLDOWN_STEPS_MS.length) - 1] ?? COOLDOWN_STEPS_MS[0];
    const until = this.clock.now() + (kind === 'billing' ? BILLING_COOLDOWN_MS : step);
    this.states.set(key, { failures, until, kind });
    return { until, kind };
  }

  succeed(provider: string, profile: string): void {
    this.states.delete(`${provider}\u0000${profile}`);
  }

  /** The active cooldown, or undefined when the profile may be used. */
  status(provider: string, profile: string): CooldownStatus | undefined {
    const state = this.states.get(`${provider}\u0000${profile}`);
    if (!state || state.until <= this.clock.now()) return undefined;
    return { until: state.until, kind: state.kind };
  }
}
