import { createHash } from 'node:crypto';
import type { Cron } from 'croner';
import type { CronJob, CronScheduleSpec } from '../protocol/index.js';
import { parseDuration } from './durations.js';

/** Top-of-hour jobs spread over this window so a hundred `0 * * * *` jobs do not start in one second. */
export const STAGGER_WINDOW_MS = 5 * 60_000;

export class ScheduleError extends Error {
  override readonly name = 'ScheduleError';
}

const FORMS =
  'Use {"kind":"at","at":"2026-03-01T08:00:00Z" | "20m"}, {"kind":"every","every":"2h"} or {"kind":"cron","expr":"0 8 * * 1-5","tz":"Europe/Berlin"}.';

/** Parsed patterns, shared by jobs with the same expression and zone: computing a slot allocates nothing new. */
const patterns = new Map<string, Cron>();
const PATTERN_CACHE_LIMIT = 5000;

/**
 * croner, once loaded. Only cron-expression schedules need it, and most
 * gateways start with none: loaded at start it would be compiled before
 * `/readyz` answers for nothing. Whoever is about to compute or check such a
 * schedule awaits `loadCron()` first (the cron service does, at start when a
 * job has one, and before adding or changing one).
 */
let CronPattern: typeof Cron | undefined;
let loading: Promise<void> | undefined;

/** Loads croner for the synchronous functions below; resolves at once when it is loaded. */
export function loadCron(): Promise<void> {
  loading ??= import('croner').then(
    (croner) => {
      CronPattern = croner.Cron;
    },
    (error: unknown) => {
      // A failed load is not remembered: the next caller tries again.
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** Whether a schedule is a cron expression, the one kind that needs croner. */
export const needsCron = (spec: CronScheduleSpec): boolean => spec.kind === 'cron';

function cronOf(expr: string, tz: string | undefined): Cron {
  const key = `${expr}\u0000${tz ?? 'UTC'}`;
  const cached = patterns.get(key);
  if (cached) return cached;
  if (!CronPattern) throw new Error(`croner is not loaded yet: await loadCron() before computing the cron schedule "${expr}".`);
  try {
    const cron = new CronPattern(expr, { paused: true, timezone: tz ?? 'UTC' });
    if (patterns.size >= PATTERN_CACHE_LIMIT) patterns.clear();
    patterns.set(key, cron);
    return cron;
  } catch (error) {
    throw new ScheduleError(
      `The cron expression "${expr}" is not valid: ${error instanceof Error ? error.message : String(error)}. Write five fields (minute hour day-of-month month day-of-week), e.g. "0 8 * * 1-5".`,
    );
  }
}

/** Checks a zone the only way croner can: by asking it for a date in that zone. */
function checkZone(tz: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz }).format(0);
  } catch {
    throw new ScheduleError(`"${tz}" is not a time zone this system knows. Use an IANA name such as "Europe/Berlin", "America/New_York" or "UTC".`);
  }
}

export interface ResolvedSchedule {
  /** The instant `at` jobs run / `every` jobs count from. */
  anchorAt: number;
}

/**
 * Validates a schedule as the user wrote it and resolves relative parts
 * against `now`. Everything that could fail later fails here, with the form
 * that works.
 */
export function resolveSchedule(spec: CronScheduleSpec, now: number): ResolvedSchedule {
  if (spec.kind === 'at') {
    const relative = parseDuration(spec.at);
    if (relative !== undefined) {
      if (relative <= 0) throw new ScheduleError(`"at": "${spec.at}" is not in the future. Give a positive delay such as "20m", or an ISO time. ${FORMS}`);
      return { anchorAt: now + relative };
    }
    if (!/^\d{4}-\d{2}-\d{2}T/.test(spec.at)) throw new ScheduleError(`"at": "${spec.at}" is neither an ISO time nor a delay. ${FORMS}`);
    const at = Date.parse(spec.at);
    if (Number.isNaN(at)) throw new ScheduleError(`"at": "${spec.at}" is not a valid ISO time. ${FORMS}`);
    if (at <= now)
      throw new ScheduleError(`"at": ${spec.at} is in the past (now is ${new Date(now).toISOString()}). Pick a later time or a delay such as "20m".`);
    return { anchorAt: at };
  }
  if (spec.kind === 'every') {
    const every = parseDuration(spec.every);
    if (every === undefined) throw new ScheduleError(`"every": "${spec.every}" is not a duration. Write a number and a unit: "90s", "20m", "2h", "1d".`);
    if (every < 1000) throw new ScheduleError(`"every": "${spec.every}" is too short; the shortest interval is 1s (use "at" for a single run).`);
    return { anchorAt: now };
  }
  if (spec.tz) checkZone(spec.tz);
  const cron = cronOf(spec.expr, spec.tz);
  let next: Date | null;
  try {
    next = cron.nextRun(new Date(now));
  } catch (error) {
    throw new ScheduleError(
      `The cron schedule "${spec.expr}"${spec.tz ? ` in ${spec.tz}` : ''} cannot be computed: ${error instanceof Error ? error.message : String(error)}.`,
    );
  }
  if (!next) throw new ScheduleError(`The cron expression "${spec.expr}" never fires. ${FORMS}`);
  return { anchorAt: now };
}

/** A job fires at second 0 of minute 0 of an hour: such jobs are staggered unless `exact`. */
export function isTopOfHour(expr: string): boolean {
  const fields = expr.trim().split(/\s+/);
  const [minute, second] = fields.length >= 6 ? [fields[1], fields[0]] : [fields[0], '0'];
  return minute === '0' && (second === '0' || second === '00');
}

/** A stable offset in [0, STAGGER_WINDOW_MS) from the job id, so restarts do not move a job's slot. */
export function staggerOffset(jobId: string): number {
  const digest = createHash('sha256').update(jobId).digest();
  return digest.readUInt32BE(0) % STAGGER_WINDOW_MS;
}

type SlotJob = Pick<CronJob, 'id' | 'schedule' | 'anchorAt'>;

/**
 * The slot a job has strictly after `after`, or undefined when it has none
 * (an `at` job whose time passed). Slots are the scheduled instants the run
 * log is keyed by; the stagger is part of the slot.
 */
export function nextSlotAfter(job: SlotJob, after: number): number | undefined {
  const { schedule } = job;
  if (schedule.kind === 'at') return job.anchorAt > after ? job.anchorAt : undefined;
  if (schedule.kind === 'every') {
    const every = parseDuration(schedule.every)!;
    if (after < job.anchorAt + every) return job.anchorAt + every;
    return job.anchorAt + (Math.floor((after - job.anchorAt) / every) + 1) * every;
  }
  const offset = !schedule.exact && isTopOfHour(schedule.expr) ? staggerOffset(job.id) : 0;
  const cron = cronOf(schedule.expr, schedule.tz);
  // The base instant lies `offset` before the slot; search from there so a slot is never skipped.
  const next = cron.nextRun(new Date(after - offset));
  return next ? next.getTime() + offset : undefined;
}

/** Every slot in (from, to], oldest first, capped so a long downtime cannot build a huge list. */
export function slotsBetween(job: SlotJob, from: number, to: number, cap = 1000): number[] {
  const slots: number[] = [];
  let cursor = from;
  while (slots.length < cap) {
    const next = nextSlotAfter(job, cursor);
    if (next === undefined || next > to) break;
    slots.push(next);
    cursor = next;
  }
  return slots;
}
