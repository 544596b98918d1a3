import type { ApprovalRecord } from '../../protocol/index.js';
import type { AlwaysEffect } from '../approvals/inbox.js';
import { addExecRules, ruleMatchesArgv, ruleText, type ExecRule } from './approvals-policy.js';
import { rulesForAlways, type ResolvedCommand } from './authorize.js';
import { parseCommand } from './plan.js';

const RECENT = 50;

function recordCommands(record: ApprovalRecord): ResolvedCommand[] {
  const plan = record.plan as { commands?: ResolvedCommand[] } | undefined;
  return plan?.commands ?? [];
}

function wouldMatch(rules: readonly ExecRule[], record: ApprovalRecord): boolean {
  const commands = recordCommands(record);
  if (rules.some((rule) => 'text' in rule && rule.text === record.command)) return true;
  return commands.length > 0 && commands.every((c) => c.executable && rules.some((rule) => ruleMatchesArgv(rule, c.executable!, c.argv.slice(1))));
}

/**
 * What `always` means for an exec request: the exact argv of each command
 * (or the exact text, when it needs a shell) joins the agent's allowlist.
 */
export function execAlwaysHandler(approvalsFile: string, now: () => number) {
  return (record: ApprovalRecord, history: readonly ApprovalRecord[]): AlwaysEffect | undefined => {
    if (record.kind !== 'exec') return undefined;
    const commands = recordCommands(record);
    const rules = rulesForAlways(parseCommand(record.command), commands, now());
    addExecRules(approvalsFile, record.agentId, rules);
    const recent = history.filter((r) => r.kind === 'exec' && r.agentId === record.agentId && r.id !== record.id).slice(-RECENT);
    return {
      rule: rules.map(ruleText).join('\n'),
      wouldMatch: [...new Set(recent.filter((r) => wouldMatch(rules, r)).map((r) => r.command))],
    };
  };
}
