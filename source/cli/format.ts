import type { CooldownEntry } from '../protocol/index.js';
/** Human durations like 3s, 4m12s, 2h03m, 5d4h. */
export function formatDuration(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h}h${String(m % 60).padStart(2, '0')}m`;
  return `${Math.floor(h / 24)}d${h % 24}h`;
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** "in 25 s", "in 4 min" */
function inTime(until: number, now: number): string {
  const seconds = Math.max(1, Math.ceil((until - now) / 1000));
  return seconds < 120 ? `in ${seconds} s` : `in ${Math.round(seconds / 60)} min`;
}

/** One line per key or model failover is skipping: what, why, until when. */
export function cooldownLines(cooldowns: readonly CooldownEntry[], now: number, indent = ''): string[] {
  return cooldowns.map(
    (c) => `${indent}${c.scope === 'model' ? c.label : `key ${c.label} (${c.provider})`} cooling after ${c.reason}; tried again ${inTime(c.until, now)}`,
  );
}
