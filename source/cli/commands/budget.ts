import { ConfigError, loadConfig, setBudget, statePaths, type BudgetsConfig } from '../../config/index.js';
import type { BudgetUse, SpendStatus } from '../../protocol/index.js';
import { formatAmount } from '../../providers/index.js';
import type { CommandRun } from '../command.js';
import { printJson } from '../format.js';
import { openSpendSource } from './spend-source.js';

const usage = `Usage:
  claw budget [status] [--json]
  claw budget set KEY VALUE      e.g. claw budget set budgets.background.dailyUsd 2 (VALUE "off" removes the cap)
  claw budget resume SESSION     let a session the runaway guard paused call the model again`;

function fail(text: string, code = 2): number {
  process.stderr.write(`claw budget: ${text}\n${usage}\n`);
  return code;
}

const BAR = 20;

function useLine(use: BudgetUse, keyWidth: number): string {
  const share = use.cap > 0 ? use.used / use.cap : 1;
  const filled = Math.min(BAR, Math.round(share * BAR));
  const bar = '█'.repeat(filled) + '░'.repeat(BAR - filled);
  return `  ${use.key.padEnd(keyWidth)}  ${bar}  ${formatAmount(use.unit, use.used)} of ${formatAmount(use.unit, use.cap)} (${Math.round(share * 100)}%)  ${use.label}`;
}

function cap(unit: 'tokens' | 'usd', value: number | null | undefined): string | undefined {
  return value === null || value === undefined ? undefined : formatAmount(unit, value);
}

function perCall(budgets: BudgetsConfig): string[] {
  const both = (tokens: number | null | undefined, usd: number | null | undefined): string =>
    [cap('usd', usd), cap('tokens', tokens)].filter(Boolean).join(' or ') || 'no cap';
  const { callsPerMinute, tokensPerMinute } = budgets.runaway;
  return [
    `  a turn          ${both(budgets.turn.maxTokens, budgets.turn.maxUsd)} (interactive turns ask you to go past it; background turns stop)`,
    `  a session       ${both(budgets.session.maxTokens, budgets.session.maxUsd)}`,
    `  runaway guard   ${[callsPerMinute != null ? `${callsPerMinute} calls` : '', tokensPerMinute != null ? formatAmount('tokens', tokensPerMinute) : ''].filter(Boolean).join(' or ') || 'off'} a minute pauses a session`,
  ];
}

export function statusLines(status: SpendStatus, budgets: BudgetsConfig): string[] {
  const lines = [
    `Today (${status.day}): ${formatAmount('usd', status.today.usd)}, ${formatAmount('tokens', status.today.tokens)}, ${status.today.calls} model call${status.today.calls === 1 ? '' : 's'}${status.estimatedCalls > 0 ? ` (${status.estimatedCalls} estimated)` : ''}`,
    `  interactive ${formatAmount('usd', status.interactive.usd)} · background ${formatAmount('usd', status.background.usd)}`,
  ];
  for (const agent of status.agents) lines.push(`  agent ${agent.agentId}: ${formatAmount('usd', agent.usd)}, ${formatAmount('tokens', agent.tokens)}`);
  lines.push('', 'Caps in force:');
  const keyWidth = Math.max(0, ...status.budgets.map((use) => use.key.length));
  lines.push(
    ...(status.budgets.length > 0
      ? status.budgets.map((use) => useLine(use, keyWidth))
      : ['  none (set one with `claw budget set budgets.globalDaily.usd 5`)']),
  );
  lines.push('', 'Per call:', ...perCall(budgets));
  if (status.paused.length > 0) {
    lines.push('', 'Paused by the runaway guard:');
    for (const paused of status.paused) lines.push(`  ${paused.sessionKey}: ${paused.reason}. Resume: claw budget resume ${paused.sessionKey}`);
  }
  return lines;
}

/** `budget set`: only keys under `budgets.`, "off" for no cap, validated before anything is written. */
function set(key: string, text: string): number {
  let value: number | null;
  try {
    value = setBudget(statePaths().config, key, text);
  } catch (error) {
    if (error instanceof ConfigError) return fail(`${error.message} Nothing was written.`);
    throw error;
  }
  process.stdout.write(`${key} = ${value === null ? 'off (no cap)' : String(value)}; a running gateway applies it to the next model call.\n`);
  return 0;
}

export const run: CommandRun = async ({ args }) => {
  const json = args.includes('--json');
  const [action = 'status', ...rest] = args.filter((arg) => arg !== '--json');
  if (action === 'set') {
    const [key, value, ...extra] = rest;
    if (!key || value === undefined || extra.length > 0) return fail('set takes a KEY and a VALUE.');
    return set(key, value);
  }
  if (action !== 'status' && action !== 'resume') return fail(`unknown action "${action}".`);
  if (action === 'status' && rest.length > 0) return fail(`status takes no arguments, not "${rest.join(' ')}".`);
  if (action === 'resume' && rest.length !== 1) return fail('resume takes one session key (see `claw budget`).');
  const source = await openSpendSource('claw budget');
  try {
    if (action === 'resume') {
      const sessionKey = rest[0]!;
      const resumed = await source.resume(sessionKey);
      if (json) printJson({ sessionKey, resumed });
      else process.stdout.write(resumed ? `Resumed ${sessionKey}: it may call the model again.\n` : `${sessionKey} was not paused.\n`);
      return 0;
    }
    const status = await source.status();
    if (json) printJson(status);
    else process.stdout.write(`${statusLines(status, loadConfig(statePaths().config).budgets).join('\n')}\n`);
    return 0;
  } finally {
    source.close();
  }
};
