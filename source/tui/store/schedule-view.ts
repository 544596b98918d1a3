import type { CronJob, HeartbeatAgentStatus, ScheduleOverview } from '../../protocol/index.js';
import { formatDuration } from '../text/format.js';

export interface ScheduleRow {
  key: string;
  text: string;
  tone?: 'running' | 'error' | 'notice';
}

const LAST = { ok: '✓', error: '✗', interrupted: '■', missed: '∅', skipped: '·', blocked: '⊘' } as const;

/** `HH:MM` today, `Mon 08:00` within a week, else the date: in the terminal's own zone. */
export function formatWhen(at: number, now: number): string {
  const date = new Date(at);
  const time = `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
  if (new Date(now).toDateString() === date.toDateString()) return time;
  if (Math.abs(at - now) < 6 * 86_400_000) return `${date.toLocaleDateString('en-US', { weekday: 'short' })} ${time}`;
  return `${date.toISOString().slice(0, 10)} ${time}`;
}

function runningJobs(schedule: ScheduleOverview): CronJob[] {
  return schedule.jobs.filter((job) => job.state.runningSince !== undefined);
}

function nextJob(schedule: ScheduleOverview): CronJob | undefined {
  return schedule.jobs
    .filter((job) => job.enabled && job.state.nextRunAt !== undefined && job.state.runningSince === undefined)
    .sort((a, b) => a.state.nextRunAt! - b.state.nextRunAt!)[0];
}

/** The pane opens by itself while something runs or the schedule has something to say. */
export function scheduleNeedsAttention(schedule: ScheduleOverview | undefined): boolean {
  if (!schedule) return false;
  return runningJobs(schedule).length > 0 || schedule.heartbeats.some((beat) => beat.running) || schedule.notices.length > 0;
}

/** The footer's word on a hidden schedule pane: what runs now, else what runs next. */
export function scheduleGlance(schedule: ScheduleOverview | undefined, now = Date.now()): string {
  if (!schedule) return '';
  const running = runningJobs(schedule);
  if (running.length > 0) return `cron ▶ ${running.map((job) => job.name).join(', ')}`;
  const next = nextJob(schedule);
  return next ? `next cron ${next.name} ${formatWhen(next.state.nextRunAt!, now)}` : '';
}

/** `⟳` marks a heartbeat: a narrow, text-only glyph (a heart has an emoji form some terminals draw two cells wide). */
function heartbeatRow(beat: HeartbeatAgentStatus, now: number): ScheduleRow {
  const key = `heartbeat:${beat.agentId}`;
  if (beat.running) return { key, text: `⟳ ${beat.agentId} running`, tone: 'running' };
  if (!beat.enabled) return { key, text: `⟳ ${beat.agentId} off` };
  const when = beat.paused ? 'paused' : beat.nextRunAt !== undefined ? `next ${formatWhen(beat.nextRunAt, now)}` : `every ${formatDuration(beat.everyMs)}`;
  const spent = beat.dailyTokenBudget !== undefined ? ` · ${beat.tokensToday}/${beat.dailyTokenBudget} tok` : '';
  return {
    key,
    text: `⟳ ${beat.agentId} ${when}${beat.lastOutcome ? ` · ${beat.lastOutcome}` : ''}${spent}`,
    ...(beat.lastOutcome === 'failed' || beat.lastOutcome === 'alert not delivered' ? { tone: 'error' as const } : {}),
  };
}

/** The pane's lines, most urgent first: running jobs, heartbeats, the next runs, notices. */
export function scheduleRows(schedule: ScheduleOverview, now: number): ScheduleRow[] {
  const rows: ScheduleRow[] = [];
  for (const job of runningJobs(schedule)) {
    rows.push({ key: `run:${job.id}`, text: `▶ ${job.name} ${formatDuration(now - job.state.runningSince!)}`, tone: 'running' });
  }
  for (const beat of schedule.heartbeats) rows.push(heartbeatRow(beat, now));
  const upcoming = schedule.jobs
    .filter((job) => job.state.runningSince === undefined)
    .sort((a, b) => (a.state.nextRunAt ?? Infinity) - (b.state.nextRunAt ?? Infinity));
  for (const job of upcoming) {
    const last = job.state.lastStatus ? `${LAST[job.state.lastStatus]} ` : '  ';
    const when = !job.enabled ? 'off' : job.state.nextRunAt !== undefined ? formatWhen(job.state.nextRunAt, now) : 'done';
    rows.push({
      key: `job:${job.id}`,
      text: `${last}${when} ${job.name}${job.state.blockedReason ? ' (blocked)' : ''}`,
      ...(job.state.lastStatus === 'error' || job.state.blockedReason ? { tone: 'error' as const } : {}),
    });
  }
  const more = (schedule.totalJobs ?? schedule.jobs.length) - schedule.jobs.length;
  if (more > 0) rows.push({ key: 'more', text: `  … ${more} more (/cron list)` });
  schedule.notices.forEach((notice, index) => rows.push({ key: `notice:${index}`, text: `! ${notice}`, tone: 'notice' }));
  return rows;
}
