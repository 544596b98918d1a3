import { join } from 'node:path';
import { configSchema, systemClock } from '../../source/config/index.js';
import { ApprovalInbox, ToolRegistry, type ToolContext } from '../../source/tools/index.js';
import { McpManager, mcpAlwaysHandler, type McpChange, type McpManagerOptions, type McpServerStatus } from '../../source/tools/mcp/index.js';
import { waitFor } from './mcp-servers.js';
import { makeTempState, type TempState } from './temp-state.js';

export interface McpTestEnv {
  state: TempState;
  registry: ToolRegistry;
  manager: McpManager;
  inbox: ApprovalInbox;
  context: ToolContext;
  /** Progress and other updates the tools streamed, in order. */
  updates: string[];
  changes: McpChange[];
  status(name: string): McpServerStatus;
  ready(name: string): Promise<unknown>;
  approvalsFile: string;
  /** Closes the manager (the "gateway stops"); the state dir stays until cleanup. */
  stop(): Promise<void>;
}

export interface McpTestEnvOptions extends Partial<Omit<McpManagerOptions, 'registry'>> {
  state?: TempState;
}

/**
 * A manager over real servers with a real approval inbox (whose "always"
 * writes mcp-approvals.json as the gateway's does) and a fresh state dir.
 * `cleanups` receives what the test's afterEach must run.
 */
export function mcpTestEnv(servers: Record<string, unknown>, cleanups: Array<() => Promise<void> | void>, options: McpTestEnvOptions = {}): McpTestEnv {
  const ownState = !options.state;
  const state = options.state ?? makeTempState();
  const approvalsFile = join(state.dir, 'mcp-approvals.json');
  const config = configSchema.parse({ mcpServers: servers });
  const registry = new ToolRegistry();
  const changes: McpChange[] = [];
  const { state: _state, ...managerOptions } = options;
  const manager = new McpManager(config.mcpServers, {
    backoff: { initialMs: 100, maxMs: 400 },
    approvalsFile,
    ...managerOptions,
    registry,
    onChange: (change) => {
      changes.push(change);
      options.onChange?.(change);
    },
  });
  const inbox = new ApprovalInbox({ file: join(state.dir, 'approval-requests.json'), onAlways: mcpAlwaysHandler(approvalsFile, systemClock) });
  const controller = new AbortController();
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    controller.abort();
    inbox.close();
    await manager.close();
  };
  cleanups.push(...(ownState ? [() => state.cleanup()] : []), stop);
  const updates: string[] = [];
  const context: ToolContext = {
    agentId: 'main',
    sessionKey: 'agent:main:main',
    sessionType: 'main',
    workspaceDir: state.dir,
    signal: controller.signal,
    onUpdate: (text) => updates.push(text),
    approvals: inbox.gate('main', 'agent:main:main'),
  };
  manager.start();
  const status = (name: string): McpServerStatus => manager.status().find((s) => s.name === name)!;
  const ready = (name: string) => waitFor(() => status(name).state === 'ready', `${name} ready`);
  return { state, registry, manager, inbox, context, updates, changes, status, ready, approvalsFile, stop };
}
