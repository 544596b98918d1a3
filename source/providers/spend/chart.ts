import type { UsageRecord } from '../../protocol/index.js';
import { daysBefore } from './calendar.js';
import { formatAmount, type Unit } from './limits.js';

export interface DailySpend {
  day: string;
  interactive: number;
  background: number;
}

/** Every day of the window (empty days included), interactive and background apart, in one unit. */
export function dailySpend(rows: readonly UsageRecord[], lastDay: string, days: number, unit: Unit): DailySpend[] {
  const byDay = new Map<string, DailySpend>();
  for (let back = days - 1; back >= 0; back -= 1) {
    const day = daysBefore(lastDay, back);
    byDay.set(day, { day, interactive: 0, background: 0 });
  }
  for (const row of rows) {
    const entry = byDay.get(row.day);
    if (!entry) continue;
    const value = unit === 'usd' ? row.usd : row.tokens;
    if (row.kind === 'interactive') entry.interactive += value;
    else entry.background += value;
  }
  return [...byDay.values()];
}

const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/** A bar of `cells` (fractional) full-block cells, eighths at its end. */
function solidBar(cells: number): string {
  const eighths = Math.round(cells * 8);
  return '█'.repeat(Math.floor(eighths / 8)) + (EIGHTHS[eighths % 8] ?? '');
}

/**
 * Daily spend as horizontal bars sized to the terminal: interactive in solid
 * blocks, background shaded after it, the day's total at the right.
 */
export function dailyChart(days: readonly DailySpend[], unit: Unit, columns: number): string[] {
  const amountWidth = Math.max(...days.map((d) => formatAmount(unit, d.interactive + d.background).length), 6);
  const barWidth = Math.max(10, columns - 10 - 2 - 1 - amountWidth - 1);
  const max = Math.max(...days.map((d) => d.interactive + d.background), 0);
  const lines = [`${'day'.padEnd(10)}  ${'█ interactive  ░ background'.padEnd(barWidth)} ${'total'.padStart(amountWidth)}`];
  for (const day of days) {
    const total = day.interactive + day.background;
    const interactiveCells = max > 0 ? (day.interactive / max) * barWidth : 0;
    const solid = solidBar(interactiveCells);
    const shaded = max > 0 ? '░'.repeat(Math.max(0, Math.round((total / max) * barWidth) - [...solid].length)) : '';
    // A day with some spend always shows at least a sliver.
    const bar = solid + shaded || (total > 0 ? '▏' : '');
    lines.push(`${day.day}  ${bar.padEnd(barWidth)} ${formatAmount(unit, total).padStart(amountWidth)}`);
  }
  return lines;
}

const SPARKS = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/** One character per value, for a line of text (`/cost`). */
export function sparkline(values: readonly number[]): string {
  const max = Math.max(...values, 0);
  return values.map((value) => (max > 0 ? (SPARKS[Math.min(7, Math.floor((value / max) * 7.999))] ?? '▁') : '▁')).join('');
}
