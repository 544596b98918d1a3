import type { ClawConfig, StatePaths } from '../config/index.js';
import { join } from 'node:path';
import { ApprovalInbox } from './approvals/inbox.js';
import { execAlwaysHandler } from './exec/always.js';
import { createExecTool } from './exec/exec-tool.js';
import { JobManager } from './exec/jobs.js';
import { createProcessTool } from './exec/process-tool.js';
import { createFsTools } from './fs/fs-tools.js';
import { ToolRegistry } from './registry.js';
import type { ToolDefinition } from './types.js';
import { createWebFetchTool } from './web/index.js';
import { createMemoryTools } from './memory-tools.js';
import { mcpAlwaysHandler, mcpApprovalsFile } from './mcp/index.js';
import type { AlwaysEffect } from './approvals/inbox.js';
import type { ApprovalRecord } from '../protocol/index.js';

/** The tools side of a gateway: the registry with the built-in tools, the approval inbox, background jobs. */
export interface ToolsRuntime {
  registry: ToolRegistry;
  inbox: ApprovalInbox;
  jobs: JobManager;
  close(): Promise<void>;
}

export interface ToolsRuntimeOptions {
  config: ClawConfig;
  paths: StatePaths;
  now?: () => number;
}

export function approvalRequestsFile(paths: StatePaths): string {
  return join(paths.root, 'approval-requests.json');
}

/** What "always" stores, by request kind: exec rules in exec-approvals.json, MCP tools in mcp-approvals.json. */
function alwaysHandlerByKind(paths: StatePaths, now: () => number): (record: ApprovalRecord, history: readonly ApprovalRecord[]) => AlwaysEffect | undefined {
  const exec = execAlwaysHandler(paths.execApprovals, now);
  const mcp = mcpAlwaysHandler(mcpApprovalsFile(paths), now);
  return (record, history) => (record.kind === 'mcp' ? mcp(record, history) : exec(record, history));
}

/** Builds the registry with the built-in tools (fs, exec, process, web_fetch, memory) and the inbox that exec asks. */
export function createToolsRuntime(options: ToolsRuntimeOptions): ToolsRuntime {
  const { config, paths } = options;
  const now = options.now ?? Date.now;
  const exec = config.tools.exec;
  const inbox = new ApprovalInbox({
    file: approvalRequestsFile(paths),
    now,
    timeoutMs: exec.approvalTimeoutMinutes * 60_000,
    onAlways: alwaysHandlerByKind(paths, now),
  });
  const jobs = new JobManager(exec.maxOutputChars);
  const registry = new ToolRegistry();
  const builtins: ToolDefinition[] = [
    ...(createFsTools({ roots: config.tools.fsRoots, maxReadBytes: config.tools.fs.maxReadBytes }) as ToolDefinition[]),
    createExecTool({ approvalsFile: paths.execApprovals, jobs, timeoutSeconds: exec.timeoutSeconds, maxOutputChars: exec.maxOutputChars }) as ToolDefinition,
    createProcessTool(jobs) as ToolDefinition,
    createWebFetchTool(config.tools.web) as ToolDefinition,
    ...(config.memory.enabled ? (createMemoryTools({ config, paths }) as ToolDefinition[]) : []),
  ];
  for (const tool of builtins) registry.register(tool);
  return {
    registry,
    inbox,
    jobs,
    async close() {
      inbox.close();
      await jobs.closeAll();
    },
  };
}
