import {
  agentExecPolicy,
  ruleMatchesCommand,
  ruleMatchesText,
  type CommandRule,
  type ExecApprovalsFile,
  type ExecRule,
  type RuleSubject,
} from './approvals-policy.js';
import type { BoundCommand, BoundPlan } from './bound-plan.js';
import { isSafeCommand } from './safe-list.js';

export interface AuthorizeInput {
  plan: BoundPlan;
  agentId: string;
  /** Agents a child acts for: their policies hold too, the strictest answer wins. */
  actingFor?: readonly string[];
  approvals: ExecApprovalsFile;
  /** Whether this exact plan (by its key) was approved with `session` earlier in the same session. */
  sessionApproved: boolean;
  /** Whether the command will run inside the OS sandbox; without one nothing runs unasked. */
  sandboxed: boolean;
  /** Workspace first, then tools.fsRoots: where safe-list paths must lie. */
  roots: readonly string[];
}

export type AuthorizeResult = { action: 'run'; reason: string } | { action: 'ask'; reason: string } | { action: 'deny'; reason: string };

function subject(plan: BoundPlan, command: BoundCommand): RuleSubject {
  return {
    executable: command.executable!,
    args: command.argv.slice(1),
    redirects: command.redirects,
    sha256: command.sha256,
    env: plan.env,
    cwd: plan.cwd,
    network: plan.network,
  };
}

function ruleAllows(rules: readonly ExecRule[], plan: BoundPlan, command: BoundCommand): boolean {
  return command.executable !== undefined && rules.some((rule) => ruleMatchesCommand(rule, subject(plan, command)));
}

function safeListAllows(plan: BoundPlan, command: BoundCommand, roots: readonly string[]): boolean {
  if (!command.executable) return false;
  if (command.redirects.some((r) => r.op === '>' || r.op === '>>')) return false;
  const context = { cwd: plan.cwd, roots };
  if (command.redirects.some((r) => r.op === '<' && !isSafeCommand('/bin/cat', ['cat', r.target!], context))) return false;
  return isSafeCommand(command.executable, command.argv, context);
}

const STRICTNESS: Record<AuthorizeResult['action'], number> = { run: 0, ask: 1, deny: 2 };

/**
 * Decides whether a bound plan runs, needs an operator, or is refused. Pure:
 * the caller resolved executables, hashed scripts and read the approvals file.
 * Every approval (rule, session, once) matches the whole plan, never its text.
 * A child acting for other agents gets the strictest of their answers and its own.
 */
export function authorizeExec(input: AuthorizeInput): AuthorizeResult {
  const own = authorizeFor(input, input.agentId);
  let strictest = own;
  for (const agentId of new Set(input.actingFor ?? [])) {
    if (agentId === input.agentId) continue;
    const theirs = authorizeFor(input, agentId);
    if (STRICTNESS[theirs.action] > STRICTNESS[strictest.action])
      strictest = { ...theirs, reason: `${theirs.reason} (the exec policy of agent "${agentId}", which this child acts for)` };
  }
  return strictest;
}

function authorizeFor(input: AuthorizeInput, agentId: string): AuthorizeResult {
  const policy = agentExecPolicy(input.approvals, agentId);
  const { plan } = input;
  if (policy.security === 'deny') return { action: 'deny', reason: 'exec is disabled for this agent (security "deny" in exec-approvals.json)' };
  if (input.sessionApproved) return { action: 'run', reason: 'this exact plan was approved for the session' };
  const textRule = plan.shellRequired && policy.rules.some((rule) => ruleMatchesText(rule, plan.text, plan));
  if (policy.ask === 'always')
    return textRule ? { action: 'run', reason: 'exact text approved' } : { action: 'ask', reason: 'every command needs approval (ask "always")' };
  if (policy.security === 'full') return { action: 'run', reason: 'security "full"' };
  const miss = (reason: string): AuthorizeResult => (policy.ask === 'off' ? { action: 'deny', reason: `${reason}; asking is off` } : { action: 'ask', reason });
  if (plan.shellRequired) return textRule ? { action: 'run', reason: 'exact text approved' } : miss(`needs a shell: ${plan.shellReasons.join(', ')}`);
  const missing = plan.commands.find((command) => !command.executable);
  if (missing) return { action: 'deny', reason: `command not found: ${missing.argv[0]}` };
  const safeList = policy.safeList && input.sandboxed && Object.keys(plan.env).length === 0 && !plan.network;
  const unlisted = plan.commands.filter((command) => !ruleAllows(policy.rules, plan, command) && !(safeList && safeListAllows(plan, command, input.roots)));
  if (unlisted.length === 0) return { action: 'run', reason: 'allowlisted' };
  const changed = unlisted.filter(
    (command) =>
      command.executable &&
      policy.rules.some((rule) => 'sha256' in rule && rule.sha256 && ruleMatchesCommand(rule, { ...subject(plan, command), sha256: rule.sha256 })),
  );
  if (changed.length)
    return miss(`${changed.map((c) => c.argv.join(' ')).join('; ')}: the script changed since it was approved (its allowlist rule records the old content)`);
  const why = !input.sandboxed && policy.safeList ? ' (the read-only safe list is off: exec is unsandboxed)' : '';
  return miss(`not on the allowlist${why}: ${unlisted.map((c) => c.argv.join(' ')).join('; ')}`);
}

/** The rules an `always` decision writes: each command bound as it was approved, or the exact text when a shell is needed. */
export function rulesForAlways(plan: BoundPlan, now: number): ExecRule[] {
  const bound = { cwd: plan.cwd, ...(Object.keys(plan.env).length ? { env: plan.env } : {}), ...(plan.network ? { network: true } : {}), addedAt: now };
  if (plan.shellRequired || plan.commands.some((c) => !c.executable)) return [{ text: plan.text, ...bound }];
  return plan.commands.map(
    (command): CommandRule => ({
      executable: command.executable!,
      args: command.argv.slice(1),
      ...(command.redirects.length ? { redirects: command.redirects } : {}),
      ...(command.sha256 ? { sha256: command.sha256 } : {}),
      ...bound,
    }),
  );
}
