import type { ClawConfig } from '../config/index.js';

export type ResetPolicy = ClawConfig['session']['reset'];

/** The most recent local-time `HH:MM` boundary at or before `now`. */
function lastDailyBoundary(now: number, daily: string): number {
  const [hh, mm] = daily.split(':').map(Number) as [number, number];
  const boundary = new Date(now);
  boundary.setHours(hh, mm, 0, 0);
  if (boundary.getTime() > now) boundary.setDate(boundary.getDate() - 1);
  return boundary.getTime();
}

/**
 * Whether a session last active at `updatedAt` starts fresh for a message at
 * `now`: a daily boundary passed since then, or it sat idle too long.
 */
export function resetDue(updatedAt: number, now: number, policy: ResetPolicy): 'daily' | 'idle' | undefined {
  if (policy.daily !== null && updatedAt < lastDailyBoundary(now, policy.daily)) return 'daily';
  if (policy.idleMinutes > 0 && now - updatedAt >= policy.idleMinutes * 60_000) return 'idle';
  return undefined;
}
