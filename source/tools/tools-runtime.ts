import { systemClock, type ClawConfig, type StatePaths, type Clock } from '../config/index.js';
import { join } from 'node:path';
import { ApprovalInbox } from './approvals/inbox.js';
import { execAlwaysHandler } from './exec/always.js';
import { createExecTool } from './exec/exec-tool.js';
import { JobManager } from './exec/jobs.js';
import { ProcessGroupLedger } from './exec/process-groups.js';
import { createProcessTool } from './exec/process-tool.js';
import { createFsTools } from './fs/fs-tools.js';
import { ToolRegistry } from './registry.js';
import type { ToolDefinition } from './types.js';
import { createWebFetchTool } from './web/index.js';
import { createMemoryTools } from './memory-tools.js';
import type { MemoryIndex } from '../memory/index.js';
import { collectKnownSecrets, SecretRedactor, type KnownSecret } from './redact.js';
import { execSandboxFor } from './sandbox/exec-sandbox.js';
import type { ExecSandbox } from './exec/exec-tool.js';
import { mcpAlwaysHandler, mcpApprovalsFile } from './mcp/index.js';
import type { AlwaysEffect } from './approvals/inbox.js';
import type { ApprovalRecord } from '../protocol/index.js';

/** The tools side of a gateway: the registry with the built-in tools, the approval inbox, background jobs. */
export interface ToolsRuntime {
  registry: ToolRegistry;
  inbox: ApprovalInbox;
  jobs: JobManager;
  /** Replaces known secret values in every tool result; the daemon adds channel and webhook tokens with `set`. */
  redactor: SecretRedactor;
  sandbox: ExecSandbox;
  close(): Promise<void>;
}

export interface ToolsRuntimeOptions {
  config: ClawConfig;
  paths: StatePaths;
  clock?: Pick<Clock, 'now'>;
  /** The gateway's environment: where provider keys come from (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Secrets known to the caller: the gateway token, webhook tokens, channel bot tokens. */
  secrets?: readonly KnownSecret[];
  /** Folders an agent may read but not write besides the workspace and tools.fsRoots (its skill folders). */
  readRoots?: (agentId: string) => readonly string[];
  /** Per-agent exec variables set by the operator (skills' env); see createExecTool. */
  agentEnv?: (agentId: string) => Readonly<Record<string, string>>;
  /** An agent's memory index for memory_search and memory_get (default: opened here, without a watcher). */
  memoryIndex?: (agentId: string) => MemoryIndex;
  /** Where start-up reports exec processes a killed gateway left running (and that it ended). */
  warn?: (message: string) => void;
}

/** Where running exec commands' process groups are recorded. */
export function execGroupsDir(paths: StatePaths): string {
  return join(paths.root, 'exec-groups');
}

export function approvalRequestsFile(paths: StatePaths): string {
  return join(paths.root, 'approval-requests.json');
}

/** What "always" stores, by request kind: exec rules in exec-approvals.json, MCP tools in mcp-approvals.json. */
function alwaysHandlerByKind(
  paths: StatePaths,
  clock: Pick<Clock, 'now'>,
): (record: ApprovalRecord, history: readonly ApprovalRecord[]) => AlwaysEffect | undefined {
  const exec = execAlwaysHandler(paths.execApprovals, clock);
  const mcp = mcpAlwaysHandler(mcpApprovalsFile(paths), clock);
  // An external agent's permission, a change to an owner-only file or a browser step has no rule to store: "always" counts for the request at hand.
  const ruleless = new Set(['acp', 'fs', 'browser']);
  return (record, history) => (ruleless.has(record.kind) ? undefined : record.kind === 'mcp' ? mcp(record, history) : exec(record, history));
}

/** Builds the registry with the built-in tools (fs, exec, process, web_fetch, memory) and the inbox that exec asks. */
export function createToolsRuntime(options: ToolsRuntimeOptions): ToolsRuntime {
  const { config, paths } = options;
  const clock = options.clock ?? systemClock;
  const exec = config.tools.exec;
  const inbox = new ApprovalInbox({
    file: approvalRequestsFile(paths),
    clock,
    timeoutMs: exec.approvalTimeoutMinutes * 60_000,
    onAlways: alwaysHandlerByKind(paths, clock),
  });
  const jobs = new JobManager(exec.maxOutputChars);
  const env = options.env ?? process.env;
  const apiKeyEnvs = [config.memory.embeddings?.apiKeyEnv, ...Object.values(config.models.providers).map((provider) => provider.apiKeyEnv)].filter(
    (name): name is string => Boolean(name),
  );
  const redactor = new SecretRedactor(
    collectKnownSecrets({ credentialsDir: paths.credentials, env, extraEnvNames: apiKeyEnvs, values: options.secrets ?? [] }),
  );
  const sandbox = execSandboxFor(config, paths, env);
  const groups = new ProcessGroupLedger(execGroupsDir(paths));
  for (const leftover of groups.endLeftovers()) {
    options.warn?.(
      `exec: ended ${leftover.killed.length} process(es) of "${leftover.command}" (group ${leftover.pgid}) left running by a gateway that was killed`,
    );
  }
  const registry = new ToolRegistry({ redactor });
  const builtins: ToolDefinition[] = [
    ...(createFsTools({
      roots: config.tools.fsRoots,
      // The same list the exec sandbox hides: what no command sees, no fs tool opens.
      hidden: sandbox.hidden,
      maxReadBytes: config.tools.fs.maxReadBytes,
      ...(options.readRoots ? { readRoots: options.readRoots } : {}),
    }) as ToolDefinition[]),
    createExecTool({
      approvalsFile: paths.execApprovals,
      jobs,
      sandbox,
      roots: config.tools.fsRoots,
      baseEnv: env,
      ...(options.agentEnv ? { agentEnv: options.agentEnv } : {}),
      hardenGit: exec.sandbox.hardenGit,
      groups,
      timeoutSeconds: exec.timeoutSeconds,
      maxOutputChars: exec.maxOutputChars,
    }) as ToolDefinition,
    createProcessTool(jobs) as ToolDefinition,
    createWebFetchTool(config.tools.web, { secretIn: (text) => redactor.find(text) }) as ToolDefinition,
    ...(config.memory.enabled
      ? (createMemoryTools({ config, paths, ...(options.memoryIndex ? { index: options.memoryIndex } : {}) }) as ToolDefinition[])
      : []),
  ];
  for (const tool of builtins) registry.register(tool);
  return {
    registry,
    inbox,
    jobs,
    redactor,
    sandbox,
    async close() {
      inbox.close();
      await jobs.closeAll();
    },
  };
}
