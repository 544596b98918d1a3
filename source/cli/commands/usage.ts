import { parseArgs } from 'node:util';
import type { UsageRecord } from '../../protocol/index.js';
import { dailyChart, dailySpend, formatAmount, type Unit } from '../../providers/index.js';
import type { CommandRun } from '../command.js';
import { printJson } from '../format.js';
import { openSpendSource } from './spend-source.js';

const usage = 'Usage: claw usage [--by agent|session|model|kind] [--days N] [--json]';
const GROUPS = ['agent', 'session', 'model', 'kind'] as const;
type Group = (typeof GROUPS)[number];

function fail(text: string): number {
  process.stderr.write(`claw usage: ${text}\n${usage}\n`);
  return 2;
}

interface GroupTotal {
  name: string;
  calls: number;
  tokens: number;
  usd: number;
  estimated: number;
}

function groupBy(rows: readonly UsageRecord[], by: Group): GroupTotal[] {
  const groups = new Map<string, GroupTotal>();
  for (const row of rows) {
    const name = row[by];
    const group = groups.get(name) ?? { name, calls: 0, tokens: 0, usd: 0, estimated: 0 };
    group.calls += row.calls;
    group.tokens += row.tokens;
    group.usd += row.usd;
    group.estimated += row.estimated;
    groups.set(name, group);
  }
  return [...groups.values()].sort((a, b) => b.usd - a.usd || b.tokens - a.tokens);
}

/** The terminal's width: the tty's, else $COLUMNS, else 80. */
function terminalColumns(): number {
  return process.stdout.columns || Number(process.env.COLUMNS) || 80;
}

function table(groups: readonly GroupTotal[], by: Group, columns: number): string[] {
  const nameWidth = Math.max(by.length, ...groups.map((g) => g.name.length));
  const width = Math.min(nameWidth, Math.max(12, columns - 40));
  const cut = (name: string): string => (name.length > width ? `${name.slice(0, width - 1)}…` : name);
  const lines = [`${by.padEnd(width)}  ${'calls'.padStart(6)}  ${'tokens'.padStart(12)}  ${'usd'.padStart(10)}`];
  for (const group of groups) {
    const estimated = group.estimated > 0 ? ` (${group.estimated} estimated)` : '';
    lines.push(
      `${cut(group.name).padEnd(width)}  ${String(group.calls).padStart(6)}  ${group.tokens.toLocaleString('en-US').padStart(12)}  ${formatAmount('usd', group.usd).padStart(10)}${estimated}`,
    );
  }
  return lines;
}

/** Spend over the last N days: a daily bar chart (interactive and background) and a table by agent, session, model or kind. */
export const run: CommandRun = async ({ argv }) => {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv.slice(argv.indexOf('usage') + 1),
      options: { by: { type: 'string', default: 'kind' }, days: { type: 'string', default: '7' }, json: { type: 'boolean', default: false } },
    });
  } catch (error) {
    return fail((error as Error).message);
  }
  const by = parsed.values.by as Group;
  if (!GROUPS.includes(by)) return fail(`--by takes one of ${GROUPS.join(', ')}, not "${by}".`);
  const days = Number(parsed.values.days);
  if (!Number.isInteger(days) || days < 1 || days > 366) return fail(`--days takes a whole number from 1 to 366, not "${parsed.values.days}".`);
  const source = await openSpendSource('claw usage');
  try {
    const { day, rows } = await source.usage(days);
    const totalUsd = rows.reduce((sum, row) => sum + row.usd, 0);
    const totalTokens = rows.reduce((sum, row) => sum + row.tokens, 0);
    // Local models cost nothing: their spend is drawn in tokens.
    const unit: Unit = totalUsd > 0 ? 'usd' : 'tokens';
    const daily = dailySpend(rows, day, days, unit);
    const groups = groupBy(rows, by);
    if (parsed.values.json) {
      printJson({ days, to: day, unit, total: { usd: totalUsd, tokens: totalTokens }, daily, by, groups });
      return 0;
    }
    const columns = terminalColumns();
    const from = daily[0]?.day ?? day;
    const out = [`Spend ${from} … ${day}: ${formatAmount('usd', totalUsd)}, ${formatAmount('tokens', totalTokens)}`, ''];
    out.push(...dailyChart(daily, unit, columns), '');
    out.push(...(groups.length > 0 ? table(groups, by, columns) : ['No model calls in this window.']));
    process.stdout.write(`${out.join('\n')}\n`);
    return 0;
  } finally {
    source.close();
  }
};
