import { formatTokens, principalKind } from '../../protocol/index.js';
import type { ContextAccount, CompactionRecord } from '../context/index.js';
import type { ContextReport } from '../agent-runtime.js';

function chars(n: number): string {
  return n.toLocaleString('en-US');
}

function pad(text: string, width: number): string {
  return text.length >= width ? `${text} ` : text.padEnd(width);
}

export function usageLine(account: ContextAccount): string {
  const share = account.window > 0 ? Math.round((account.used / account.window) * 100) : 0;
  const source = account.reported !== undefined ? 'as the provider counted' : 'estimated';
  return `context   ${formatTokens(account.used)} / ${formatTokens(account.window)} tokens (${share}%, ${source}); memory flush at ${formatTokens(account.thresholds.flush)}, compaction at ${formatTokens(account.thresholds.compact)}`;
}

export function compactionsLine(compactions: readonly CompactionRecord[]): string {
  const last = compactions.at(-1);
  if (!last) return 'compactions  none';
  return `compactions  ${compactions.length}, last ${new Date(last.at).toISOString()} (${formatTokens(last.before)} → ${formatTokens(last.after)} tokens)`;
}

function skillsLines(report: ContextReport): string[] {
  const section = report.sections.find((entry) => entry.name === 'skills')?.chars ?? 0;
  const { form, listed, omitted, notOffered, block } = report.skills;
  // The block's own size, as `/skills` and `claw skills list` count it; the section's heading and instructions come on top.
  const framing = section - block.length;
  const lines = [
    `skills block   ${block.length > 0 ? `${chars(block.length)} chars, ${listed.length} skills (${form} form)${framing > 0 ? ` + ${chars(framing)} chars of instructions` : ''}` : 'none'}`,
  ];
  if (omitted.length > 0) lines.push(`  left out (over skills.limits.maxPromptChars): ${omitted.join(', ')}`);
  if (notOffered.length > 0) lines.push(`  not offered: ${notOffered.map((skill) => `${skill.name} (${skill.reason})`).join('; ')}`);
  return lines;
}

/** `/context list`: what the system prompt is made of, in characters, and the tokens used. */
export function formatContextList(report: ContextReport, account: ContextAccount, compactions: readonly CompactionRecord[]): string {
  const lines = [`model     ${report.model ?? 'none configured'}`, usageLine(account), `system prompt  ${chars(report.systemPromptChars)} chars`];
  for (const section of report.sections)
    if (section.chars > 0 && section.name !== 'bootstrap') lines.push(`  ${pad(section.name, 14)}${chars(section.chars)} chars`);
  lines.push('bootstrap files (raw → injected chars)');
  for (const file of report.bootstrap) {
    const state = file.missing ? 'missing' : `${chars(file.rawChars)} → ${chars(file.injectedChars)}${file.truncated ? '  TRUNCATED' : ''}`;
    lines.push(`  ${pad(file.name, 14)}${state}`);
  }
  lines.push(...skillsLines(report));
  lines.push(`tool schemas   ${report.tools.length} tools, ${chars(report.toolSchemaChars)} chars`);
  if (report.deferredTools.count > 0 || report.loadedTools > 0)
    lines.push(
      `  deferred     ${report.deferredTools.count} MCP tools behind tool_search (${chars(report.deferredTools.chars)} chars not sent); ${report.loadedTools} loaded by search`,
    );
  if (report.droppedTools.length > 0)
    lines.push(
      `  not sent     ${report.droppedTools.length} tools past the API's limit (defer: never): ${report.droppedTools.slice(0, 5).join(', ')}${report.droppedTools.length > 5 ? ', …' : ''}`,
    );
  if (report.principal !== 'owner') lines.push(`asked by       ${report.principal} (tool profile: tools.profiles.${principalKind(report.principal)})`);
  if (report.withheld.length > 0) {
    lines.push(`withheld       ${report.withheld.length} tools`);
    for (const tool of report.withheld) lines.push(`  ${pad(tool.name, 14)}${tool.reason}`);
  }
  lines.push(compactionsLine(compactions));
  lines.push(...(account.notes ?? []));
  return lines.join('\n');
}

/** `/context detail`: tokens per part of the context. */
export function formatContextDetail(account: ContextAccount, compactions: readonly CompactionRecord[]): string {
  const width = Math.max(...account.parts.map((part) => part.name.length)) + 2;
  const rows = account.parts.map((part) => `  ${pad(part.name, width)}${formatTokens(part.tokens).padStart(7)}`);
  return [usageLine(account), 'part', ...rows, `  ${pad('total', width)}${formatTokens(account.used).padStart(7)}`, compactionsLine(compactions)].join('\n');
}
