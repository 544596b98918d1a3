import type { Clock } from '../../config/index.js';
import type { ApprovalRecord } from '../../protocol/index.js';
import type { AlwaysEffect } from '../approvals/inbox.js';
import { addExecRules, ruleMatchesCommand, ruleMatchesText, ruleText, type ExecRule } from './approvals-policy.js';
import { rulesForAlways } from './authorize.js';
import type { BoundPlan } from './bound-plan.js';

const RECENT = 50;

function boundPlan(record: ApprovalRecord): BoundPlan | undefined {
  const plan = record.plan as Partial<BoundPlan> | undefined;
  return plan && typeof plan.key === 'string' && Array.isArray(plan.commands) ? (plan as BoundPlan) : undefined;
}

function wouldMatch(rules: readonly ExecRule[], plan: BoundPlan): boolean {
  if (plan.shellRequired) return rules.some((rule) => ruleMatchesText(rule, plan.text, plan));
  return (
    plan.commands.length > 0 &&
    plan.commands.every(
      (c) =>
        c.executable &&
        rules.some((rule) =>
          ruleMatchesCommand(rule, {
            executable: c.executable!,
            args: c.argv.slice(1),
            redirects: c.redirects,
            sha256: c.sha256,
            env: plan.env,
            cwd: plan.cwd,
            network: plan.network,
          }),
        ),
    )
  );
}

/**
 * What `always` means for an exec request: each command, bound as it was
 * approved (argv, redirections, env, workdir, network, script hash), joins
 * the agent's allowlist; a shell command is remembered by its exact text.
 */
export function execAlwaysHandler(approvalsFile: string, clock: Pick<Clock, 'now'>) {
  return (record: ApprovalRecord, history: readonly ApprovalRecord[]): AlwaysEffect | undefined => {
    if (record.kind !== 'exec') return undefined;
    const plan = boundPlan(record);
    if (!plan) return undefined;
    const rules = rulesForAlways(plan, clock.now());
    addExecRules(approvalsFile, record.agentId, rules);
    const recent = history.filter((r) => r.kind === 'exec' && r.agentId === record.agentId && r.id !== record.id).slice(-RECENT);
    return {
      rule: rules.map(ruleText).join('\n'),
      wouldMatch: [
        ...new Set(
          recent
            .filter((r) => {
              const p = boundPlan(r);
              return p !== undefined && wouldMatch(rules, p);
            })
            .map((r) => r.command),
        ),
      ],
    };
  };
}
