import { closeSync, constants, openSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { lazySchema } from '../../protocol/index.js';
import { defineTool } from '../define-tool.js';
import { PathRefused, realOrSelf } from '../fs/confine.js';
import { ownerOnlyPath, ownerOnlyPaths } from '../fs/owner-paths.js';
import { openConfinedSync } from '../fs/safe-open.js';
import { bubblewrapArgs, visibleInSandbox, type ConcealedHome, type SandboxStatus } from '../sandbox/sandbox.js';
import { childEnv } from '../sandbox/child-env.js';
import { toolError, toolOk, type ToolContext, type ToolDefinition, type ToolResult } from '../types.js';
import { wrapUntrusted } from '../web/untrusted.js';
import { readExecApprovalsFile } from './approvals-policy.js';
import { authorizeExec } from './authorize.js';
import { bindPlan, describeBoundPlan, type BoundPlan } from './bound-plan.js';
import { gitConfigEnv, hardenGit, isGit } from './git-guard.js';
import { expandPlanGlobs } from './glob.js';
import type { JobManager } from './jobs.js';
import { parseCommand, planCommands, type ExecPlan } from './plan.js';
import { resolveExecutable } from './resolve-executable.js';
import type { ProcessGroupLedger } from './process-groups.js';
import { PlanRun, type Launch, type RunResult } from './run-plan.js';

/** How exec calls are confined: the probed sandbox and what it hides. */
export interface ExecSandbox {
  status: SandboxStatus;
  /** The state dir and secret folders; never visible inside. */
  hidden: readonly string[];
  /** Home, empty inside but for its readable list (absent: home is visible, read-only). */
  home?: ConcealedHome | undefined;
  /** Whether every command gets the host network (tools.exec.sandbox.network); otherwise only calls that ask and are approved. */
  network: boolean;
  /** Finds out `status` in the background, so reading it later does not block. */
  prepare?(): Promise<void>;
}

export interface ExecToolOptions {
  /** `<state>/exec-approvals.json`. */
  approvalsFile: string;
  jobs: JobManager;
  sandbox: ExecSandbox;
  /** tools.fsRoots: writable inside the sandbox besides the workspace. */
  roots?: readonly string[];
  timeoutSeconds?: number;
  maxOutputChars?: number;
  /** Environment the allowlisted variables come from; default the gateway's own. */
  baseEnv?: NodeJS.ProcessEnv;
  /**
   * Variables the operator configured for an agent (its skills' `skills.entries.<name>.env`):
   * given to every exec of that agent, not part of what is approved since the model cannot set them.
   */
  agentEnv?: (agentId: string) => Readonly<Record<string, string>>;
  /** Turn off git's code-running settings (fsmonitor, hooks, pager, textconv, …); default on. */
  hardenGit?: boolean;
  /** Records the process groups of running commands in the state dir (see ProcessGroupLedger). */
  groups?: ProcessGroupLedger;
}

const execInput = lazySchema(() =>
  z.strictObject({
    command: z
      .string()
      .min(1)
      .describe('Command line: words, quotes, |, &&, ||, ;, < > >> 2> 2>&1. Shell features ($VAR, globs, $(...)) need operator approval.'),
    workdir: z.string().optional().describe('Working directory, relative to the workspace'),
    env: z.record(z.string(), z.string()).optional().describe('Extra environment variables (shown to the operator and part of what is approved)'),
    network: z.boolean().optional().describe('Ask for network access (needs operator approval); commands have no network otherwise'),
    timeout: z.number().int().min(1).optional().describe('Seconds before the command is killed (default 1800)'),
    background: z.boolean().optional().describe('Start as a background job; follow it with the process tool'),
  }),
);

export function formatRunResult(result: RunResult, command: string): ToolResult {
  const status = result.killed === 'timeout' ? 'killed after timeout' : result.killed === 'aborted' ? 'aborted' : `exit code ${result.exitCode}`;
  const body = result.output.length ? result.output : '(no output)';
  const details = { exitCode: result.exitCode, durationMs: result.durationMs, totalChars: result.totalChars, killed: result.killed };
  const text = `${wrapUntrusted(body, { source: 'exec', command: command.length > 200 ? `${command.slice(0, 200)}…` : command })}\n[${status}]`;
  return result.exitCode === 0 && !result.killed ? toolOk(text, details) : toolError(text, details);
}

function openedPath(fd: number, fallback: string): string {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return realpathSync(fallback);
  }
}

/** A `<` source inside the sandbox: anything visible there, so nothing hidden, checked on the opened file. */
function openReadable(target: string, roots: readonly string[], sandbox: ExecSandbox): number {
  const fd = openSync(target, constants.O_RDONLY);
  if (!visibleInSandbox(openedPath(fd, target), roots, sandbox.hidden, sandbox.home)) {
    closeSync(fd);
    throw new PathRefused(
      `${target} is hidden from commands (the claw state dir, secret folders, and home outside tools.exec.sandbox.readable); it cannot be redirected in.`,
    );
  }
  return fd;
}

function approvalReason(reason: string, sandbox: ExecSandbox, plan: BoundPlan): string {
  const notes = [reason];
  if (plan.network) notes.push('asks for network access');
  else if (sandbox.status.kind === 'bubblewrap' && !sandbox.network)
    // An "always" for `curl …` that then fails with exit 7 surprises everyone: say it before it is approved.
    notes.push('runs WITHOUT network in the sandbox (a download or push fails; the call must ask for network: true, or set tools.exec.sandbox.network)');
  if (sandbox.status.kind === 'none') notes.push(`EXEC UNSANDBOXED: ${sandbox.status.reason}`);
  return notes.join('; ');
}

/** What a command prints when it found no network (curl, git, npm, pip, wget, Node), and curl's exit codes for it. */
const NO_NETWORK =
  /Could not resolve host|Temporary failure in name resolution|Network is unreachable|getaddrinfo (EAI_AGAIN|ENOTFOUND)|Name or service not known|unable to resolve host|Failed to connect to/i;
const CURL_NO_NETWORK = new Set([6, 7]);

/** A failed run that looks like it needed the network it did not have: said, with the way to get it. */
function networkHint(result: ToolResult, ran: { network: boolean; sandboxed: boolean }, executables: readonly string[]): ToolResult {
  if (!result.isError || ran.network || !ran.sandboxed) return result;
  const exitCode = result.details?.exitCode;
  const curl = executables.some((file) => file.endsWith('/curl')) && typeof exitCode === 'number' && CURL_NO_NETWORK.has(exitCode);
  if (!curl && !NO_NETWORK.test(result.content)) return result;
  return {
    ...result,
    content: `${result.content}\n[This ran in the sandbox without network. If it needs the network, call exec again with network: true (the operator approves it).]`,
  };
}

export function createExecTool(options: ExecToolOptions): ToolDefinition<z.output<typeof execInput>> {
  const maxOutputChars = options.maxOutputChars ?? 200_000;
  const { sandbox } = options;
  return defineTool({
    name: 'exec',
    group: 'runtime',
    risk: 'high',
    description:
      'Run a command in the workspace, inside a sandbox (only the workspace is writable, no network unless asked for). Commands run without a shell; ' +
      'read-only commands run at once, others wait for operator approval. Use background for long-running processes.',
    input: execInput,
    async execute(args, context: ToolContext) {
      const cwd = args.workdir ? (isAbsolute(args.workdir) ? args.workdir : resolve(context.workspaceDir, args.workdir)) : context.workspaceDir;
      try {
        if (!statSync(cwd).isDirectory()) return toolError(`workdir ${cwd} is not a directory.`);
      } catch {
        return toolError(`workdir ${cwd} does not exist. Create it first or pick another workdir.`);
      }
      const explicitEnv = args.env ?? {};
      const env = { ...childEnv(options.baseEnv ?? process.env), ...options.agentEnv?.(context.agentId), ...gitConfigEnv(), ...explicitEnv };
      const roots = [context.workspaceDir, ...(options.roots ?? []).map((root) => resolve(context.workspaceDir, root))];
      const parsed: ExecPlan = parseCommand(args.command);
      // Globs are expanded once, here: the approval lists every name and the run gets exactly those.
      const { plan, expanded: globbed } = expandPlanGlobs(parsed, cwd);
      const bind = (): BoundPlan =>
        bindPlan({
          plan,
          globbed,
          executables: plan.shellRequired ? [] : planCommands(plan).map((command) => resolveExecutable(command.argv[0]!, cwd, env.PATH)),
          cwd,
          env: explicitEnv,
          network: args.network === true,
          roots,
        });
      const bound = bind();
      // Read per call: the sandbox is probed on first use, not when the daemon declares its tools.
      const sandboxed = sandbox.status.kind === 'bubblewrap';
      const verdict = authorizeExec({
        plan: bound,
        agentId: context.agentId,
        ...(context.actingForAgents ? { actingFor: context.actingForAgents } : {}),
        approvals: readExecApprovalsFile(options.approvalsFile),
        sessionApproved: context.approvals.approvedForSession('exec', bound.key),
        sandboxed,
        roots,
      });
      if (verdict.action === 'deny') return toolError(`Not run: ${verdict.reason}.`);
      // `/mode auto-edit`: inside the sandbox a command can write only the workspace and reach no network, so the owner lets it run unasked.
      const autoEdit = context.approvalMode === 'auto-edit' && sandboxed && !bound.network;
      if (verdict.action === 'ask' && !autoEdit) {
        const outcome = await context.approvals.request(
          {
            kind: 'exec',
            command: describeBoundPlan(bound),
            binding: bound.key,
            plan: bound,
            cwd,
            envKeys: Object.keys(explicitEnv),
            reason: approvalReason(verdict.reason, sandbox, bound),
          },
          context.signal,
        );
        if (!outcome.approved) {
          const why = outcome.status === 'expired' ? 'no operator answered in time' : 'the operator denied it';
          return toolError(`Not run: ${why} (approval ${outcome.id}). Do not retry the same command; ask the user or try another approach.`);
        }
        // The approval covers the plan as it was shown: a script rewritten or a PATH entry swapped meanwhile is something else.
        if (bind().key !== bound.key)
          return toolError('Not run: a script or executable of this command changed while it waited for approval. Ask again if it is still wanted.');
      }
      const missing = bound.commands.find((command) => !command.executable);
      if (missing) return toolError(`Command not found: ${missing.argv[0]}. Check the name or install it.`);
      const network = bound.network || sandbox.network;
      const launch = (executable: string, argv: readonly string[]): Launch => {
        let commandArgs = argv.slice(1);
        let commandEnv = env;
        if (options.hardenGit !== false && isGit(executable)) {
          const hardened = hardenGit(executable, argv, cwd, env);
          commandArgs = hardened.args;
          commandEnv = { ...env, ...hardened.env, ...explicitEnv };
        }
        if (sandbox.status.kind !== 'bubblewrap') return { file: executable, args: commandArgs, env: commandEnv, keepArgv0: true };
        // What becomes code or instructions is the owner's: read-only in here, whatever the command does.
        const readOnly = ownerOnlyPaths(context.workspaceDir);
        const wrapped = bubblewrapArgs(
          sandbox.status.path,
          { writable: roots, hidden: sandbox.hidden, network, readOnly, home: sandbox.home },
          cwd,
          executable,
          commandArgs,
        );
        return { file: wrapped.file, args: wrapped.args, env: commandEnv, keepArgv0: false };
      };
      const openRedirect = sandboxed
        ? (target: string, op: '<' | '>' | '>>') =>
            op === '<'
              ? openReadable(target, roots, sandbox)
              : openOwnFile(
                  target,
                  cwd,
                  context.workspaceDir,
                  () => openConfinedSync(target, context.workspaceDir, options.roots ?? [], op === '>' ? 'write' : 'append').fd,
                )
        : undefined;
      const listeners: ((text: string) => void)[] = [];
      const run = new PlanRun(plan, {
        cwd,
        env,
        executables: bound.commands.map((command) => command.executable!),
        timeoutMs: (args.timeout ?? options.timeoutSeconds ?? 1800) * 1000,
        maxOutputChars,
        signal: args.background ? undefined : context.signal,
        interactive: args.background === true,
        launch,
        ...(openRedirect ? { openRedirect } : {}),
        ...(options.groups ? { groups: options.groups } : {}),
        onOutput: (text) => {
          for (const listener of listeners) listener(text);
        },
      });
      if (args.background) {
        const job = options.jobs.start(run, { agentId: context.agentId, sessionKey: context.sessionKey, command: plan.text }, (listener) =>
          listeners.push(listener),
        );
        return toolOk(`Started background job ${job.id}. Use the process tool (poll, log, write, kill) with id "${job.id}".`, {
          jobId: job.id,
          pids: run.pids,
        });
      }
      listeners.push((text) => context.onUpdate(text));
      const executables = bound.commands.flatMap((command) => (command.executable ? [command.executable] : []));
      return networkHint(formatRunResult(await run.result, plan.text), { network, sandboxed }, executables);
    },
  });
}

/** A redirect into a file only the owner changes (hooks/, skills/, .agents/, bootstrap files) is refused; `write` asks the owner instead. */
function openOwnFile(target: string, cwd: string, workspaceDir: string, open: () => number): number {
  const path = isAbsolute(target) ? target : resolve(cwd, target);
  const rel = ownerOnlyPath(realOrSelf(path), workspaceDir);
  if (rel) throw new PathRefused(`${rel} is one of the files only the owner changes; a redirect may not write it. Use the write tool, which asks the owner.`);
  return open();
}
