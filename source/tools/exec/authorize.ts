import { agentExecPolicy, ruleMatchesArgv, type ExecApprovalsFile, type ExecRule } from './approvals-policy.js';
import { planCommands, type ExecPlan } from './plan.js';
import { isSafeCommand } from './safe-list.js';

export interface ResolvedCommand {
  argv: string[];
  /** Path found on PATH (what runs), undefined when not found. */
  executable: string | undefined;
}

export interface AuthorizeInput {
  plan: ExecPlan;
  commands: ResolvedCommand[];
  agentId: string;
  approvals: ExecApprovalsFile;
  /** Keys of env overrides the call asked for. */
  envKeys: readonly string[];
  /** Exact texts approved for this session. */
  sessionApproved: ReadonlySet<string>;
}

export type AuthorizeResult =
  | { action: 'run'; reason: string }
  | { action: 'ask'; reason: string }
  | { action: 'deny'; reason: string };

/** Env overrides that change which code a program loads or runs; they defeat any allowlist. */
const riskyEnv = /^(PATH|LD_.*|DYLD_.*|NODE_OPTIONS|NODE_PATH|BASH_ENV|ENV|SHELLOPTS|BASHOPTS|PS4|IFS|GIT_.*|PYTHON.*|PERL5?.*|RUBY.*|JAVA_TOOL_OPTIONS|HOME|XDG_CONFIG_HOME|EDITOR|VISUAL|PAGER|LESSOPEN)$/;

function commandAllowed(command: ResolvedCommand, rules: readonly ExecRule[], safeList: boolean): boolean {
  if (!command.executable) return false;
  const args = command.argv.slice(1);
  if (rules.some((rule) => ruleMatchesArgv(rule, command.executable!, args))) return true;
  return safeList && isSafeCommand(command.executable, command.argv);
}

function writesFiles(plan: ExecPlan): boolean {
  return planCommands(plan).some((command) => command.redirects.some((r) => r.op === '>' || r.op === '>>'));
}

/**
 * Decides whether a parsed command runs, needs an operator, or is refused.
 * Pure: the caller resolved executables and read the approvals file.
 */
export function authorizeExec(input: AuthorizeInput): AuthorizeResult {
  const policy = agentExecPolicy(input.approvals, input.agentId);
  const { plan } = input;
  if (policy.security === 'deny') return { action: 'deny', reason: 'exec is disabled for this agent (security "deny" in exec-approvals.json)' };
  const approvedText = input.sessionApproved.has(plan.text) || policy.rules.some((rule) => 'text' in rule && rule.text === plan.text);
  if (policy.ask === 'always') {
    return approvedText ? { action: 'run', reason: 'exact text approved' } : { action: 'ask', reason: 'every command needs approval (ask "always")' };
  }
  if (policy.security === 'full') return { action: 'run', reason: 'security "full"' };
  const miss = (reason: string): AuthorizeResult => (policy.ask === 'off' ? { action: 'deny', reason: `${reason}; asking is off` } : { action: 'ask', reason });
  if (approvedText) return { action: 'run', reason: 'exact text approved' };
  if (plan.shellRequired) return miss(`needs a shell: ${plan.shellReasons.join(', ')}`);
  const risky = input.envKeys.filter((key) => riskyEnv.test(key));
  if (risky.length) return miss(`sets ${risky.join(', ')}, which changes what programs run`);
  const missing = input.commands.find((command) => !command.executable);
  if (missing) return { action: 'deny', reason: `command not found: ${missing.argv[0]}` };
  const unlisted = input.commands.filter((command) => !commandAllowed(command, policy.rules, policy.safeList));
  if (unlisted.length) return miss(`not on the allowlist: ${unlisted.map((c) => c.argv.join(' ')).join('; ')}`);
  if (writesFiles(plan)) {
    const viaSafeList = input.commands.some((c) => !policy.rules.some((rule) => ruleMatchesArgv(rule, c.executable!, c.argv.slice(1))));
    if (viaSafeList) return miss('redirects output into a file, which the read-only safe list does not cover');
  }
  return { action: 'run', reason: 'allowlisted' };
}

/** The rules an `always` decision writes: exact argv per command, or the exact text when a shell is needed. */
export function rulesForAlways(plan: ExecPlan, commands: readonly ResolvedCommand[], now: number): ExecRule[] {
  if (plan.shellRequired || commands.some((c) => !c.executable)) return [{ text: plan.text, addedAt: now }];
  return commands.map((command) => ({ executable: command.executable!, args: command.argv.slice(1), addedAt: now }));
}
