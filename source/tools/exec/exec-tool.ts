import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { toolError, toolOk, type ToolContext, type ToolDefinition, type ToolResult } from '../types.js';
import { readExecApprovalsFile } from './approvals-policy.js';
import { authorizeExec, type ResolvedCommand } from './authorize.js';
import type { JobManager } from './jobs.js';
import { parseCommand, planCommands, type ExecPlan } from './plan.js';
import { resolveExecutable } from './resolve-executable.js';
import { PlanRun, type RunResult } from './run-plan.js';

export interface ExecToolOptions {
  /** `<state>/exec-approvals.json`. */
  approvalsFile: string;
  jobs: JobManager;
  timeoutSeconds?: number;
  maxOutputChars?: number;
  /** Environment every command starts from; default the gateway's own. */
  baseEnv?: Record<string, string>;
}

const execInput = z.strictObject({
  command: z.string().min(1).describe('Command line: words, quotes, |, &&, ||, ;, < > >> 2> 2>&1. Shell features ($VAR, globs, $(...)) need operator approval.'),
  workdir: z.string().optional().describe('Working directory, relative to the workspace'),
  env: z.record(z.string(), z.string()).optional().describe('Extra environment variables'),
  timeout: z.number().int().min(1).optional().describe('Seconds before the command is killed (default 1800)'),
  background: z.boolean().optional().describe('Start as a background job; follow it with the process tool'),
});

/** The plan as stored in an approval record: parsed steps plus the executable each command resolved to. */
export interface ApprovalPlan {
  steps: ExecPlan['steps'];
  shellRequired: boolean;
  shellReasons: string[];
  commands: ResolvedCommand[];
}

function inheritedEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

export function formatRunResult(result: RunResult): ToolResult {
  const status = result.killed === 'timeout' ? 'killed after timeout' : result.killed === 'aborted' ? 'aborted' : `exit code ${result.exitCode}`;
  const body = result.output.length ? result.output : '(no output)';
  const details = { exitCode: result.exitCode, durationMs: result.durationMs, totalChars: result.totalChars, killed: result.killed };
  const text = `${body}\n[${status}]`;
  return result.exitCode === 0 && !result.killed ? toolOk(text, details) : toolError(text, details);
}

export function createExecTool(options: ExecToolOptions): ToolDefinition<z.output<typeof execInput>> {
  const maxOutputChars = options.maxOutputChars ?? 200_000;
  return defineTool({
    name: 'exec',
    group: 'runtime',
    risk: 'high',
    description:
      'Run a command in the workspace. Commands run without a shell; read-only commands run at once, others wait for operator approval. Use background for long-running processes.',
    input: execInput,
    async execute(args, context: ToolContext) {
      const cwd = args.workdir ? (isAbsolute(args.workdir) ? args.workdir : resolve(context.workspaceDir, args.workdir)) : context.workspaceDir;
      try {
        if (!statSync(cwd).isDirectory()) return toolError(`workdir ${cwd} is not a directory.`);
      } catch {
        return toolError(`workdir ${cwd} does not exist. Create it first or pick another workdir.`);
      }
      const env = { ...(options.baseEnv ?? inheritedEnv()), ...(args.env ?? {}) };
      const plan = parseCommand(args.command);
      const commands: ResolvedCommand[] = plan.shellRequired
        ? []
        : planCommands(plan).map((command) => ({ argv: command.argv, executable: resolveExecutable(command.argv[0]!, cwd, env.PATH) }));
      const envKeys = Object.keys(args.env ?? {});
      const sessionApproved = new Set(context.approvals.approvedForSession(plan.text) ? [plan.text] : []);
      const verdict = authorizeExec({ plan, commands, agentId: context.agentId, approvals: readExecApprovalsFile(options.approvalsFile), envKeys, sessionApproved });
      if (verdict.action === 'deny') return toolError(`Not run: ${verdict.reason}.`);
      if (verdict.action === 'ask') {
        const approvalPlan: ApprovalPlan = { steps: plan.steps, shellRequired: plan.shellRequired, shellReasons: plan.shellReasons, commands };
        const outcome = await context.approvals.request({ kind: 'exec', command: plan.text, plan: approvalPlan, cwd, envKeys, reason: verdict.reason }, context.signal);
        if (!outcome.approved) {
          const why = outcome.status === 'expired' ? 'no operator answered in time' : 'the operator denied it';
          return toolError(`Not run: ${why} (approval ${outcome.id}). Do not retry the same command; ask the user or try another approach.`);
        }
      }
      const missing = commands.find((command) => !command.executable);
      if (missing) return toolError(`Command not found: ${missing.argv[0]}. Check the name or install it.`);
      const listeners: ((text: string) => void)[] = [];
      const run = new PlanRun(plan, {
        cwd,
        env,
        executables: commands.map((command) => command.executable!),
        timeoutMs: (args.timeout ?? options.timeoutSeconds ?? 1800) * 1000,
        maxOutputChars,
        signal: args.background ? undefined : context.signal,
        interactive: args.background === true,
        onOutput: (text) => {
          for (const listener of listeners) listener(text);
        },
      });
      if (args.background) {
        const job = options.jobs.start(run, { agentId: context.agentId, sessionKey: context.sessionKey, command: plan.text }, (listener) => listeners.push(listener));
        return toolOk(`Started background job ${job.id}. Use the process tool (poll, log, write, kill) with id "${job.id}".`, { jobId: job.id, pids: run.pids });
      }
      listeners.push((text) => context.onUpdate(text));
      return formatRunResult(await run.result);
    },
  });
}
