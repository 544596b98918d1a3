/** Waits after 1, 2, 3, 4, 5+ failed runs in a row. */
export const ERROR_BACKOFF_MS = [30_000, 60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000] as const;
/** Failed runs in a row that raise a failure alert. */
export const FAILURE_ALERT_AFTER = 2;
/** Schedules that cannot be computed in a row before the job is disabled. */
export const SCHEDULE_ERRORS_TO_DISABLE = 3;
/** A one-shot job gives up after this many failed attempts. */
export const ONE_SHOT_ATTEMPTS = ERROR_BACKOFF_MS.length + 1;
/** The scheduler re-reads the time at least this often, so a long sleep or clock jump cannot strand a slot. */
export const MAX_TIMER_MS = 60 * 60_000;

export function backoffFor(consecutiveErrors: number): number {
  if (consecutiveErrors <= 0) return 0;
  return ERROR_BACKOFF_MS[Math.min(consecutiveErrors, ERROR_BACKOFF_MS.length) - 1]!;
}
