import { formatUntil, type CooldownEntry } from '../protocol/index.js';

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

/** One line per key or model failover is skipping: what, why, until when. */
export function cooldownLines(cooldowns: readonly CooldownEntry[], now: number, indent = ''): string[] {
  return cooldowns.map(
    (c) => `${indent}${c.scope === 'model' ? c.label : `key ${c.label} (${c.provider})`} cooling after ${c.reason}; tried again ${formatUntil(c.until, now)}`,
  );
}
