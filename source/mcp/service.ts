import { join, resolve } from 'node:path';
import { agentWorkspaceDir, type ClawConfig, type StatePaths, type Clock } from '../config/index.js';
import { ElicitationInbox, McpManager, mcpApprovalsFile, type McpManagerOptions, type McpServerStatus, type ToolRegistry } from '../tools/index.js';
import type { Logger } from '../config/index.js';
import type { ClientsPort, Service, ServiceHealth } from '../core/index.js';
import type { mcpSampler } from './sampling.js';

export interface McpServiceOptions {
  backoff?: McpManagerOptions['backoff'];
  connectTimeoutMs?: number;
  /** How long a server's question waits for the operator before it is declined. */
  elicitationTimeoutMs?: number;
  /** Lends the agent's model to servers configured with `sampling: true`. */
  sample?: ReturnType<typeof mcpSampler>;
  /** Where client secrets named by `oauth.clientSecretEnv` are read. */
  env?: NodeJS.ProcessEnv;
}

/** The folders servers may work in: every agent's workspace and `tools.fsRoots`. */
function rootFolders(config: ClawConfig, paths: StatePaths): string[] {
  const workspaces = [paths.workspace('main'), ...config.agents.list.map((agent) => agentWorkspaceDir(config, paths, agent.id))];
  return [...new Set([...workspaces, ...config.tools.fsRoots].map((folder) => resolve(folder)))];
}

/**
 * The `mcpServers` of claw.json, connected in the background (start-up never
 * waits for them); a config reload connects new servers, restarts changed ones
 * and ends removed ones with their process group. Server questions
 * (elicitation) wait in an inbox the operator answers; every change is pushed
 * as `mcp.changed` so clients need not poll.
 */
export class McpService implements Service {
  readonly name = 'mcp';
  readonly manager: McpManager;
  readonly elicitations: ElicitationInbox;
  readonly #reported = new Map<string, string | undefined>();
  readonly #unsubscribe: () => void;

  constructor(
    private readonly config: ClawConfig,
    paths: StatePaths,
    registry: ToolRegistry,
    private readonly log: Logger,
    events: ClientsPort,
    clock: Pick<Clock, 'now'>,
    options: McpServiceOptions = {},
  ) {
    this.elicitations = new ElicitationInbox({ clock, ...(options.elicitationTimeoutMs ? { timeoutMs: options.elicitationTimeoutMs } : {}) });
    this.#unsubscribe = this.elicitations.on((event, elicitation) =>
      events.emit(event === 'requested' ? 'mcp.elicitation.requested' : 'mcp.elicitation.resolved', { elicitation }),
    );
    this.manager = new McpManager(config.mcpServers, {
      registry,
      clock,
      approvalsFile: mcpApprovalsFile(paths),
      roots: () => rootFolders(config, paths),
      elicit: (server, params, signal) => this.elicitations.ask(server, params, signal),
      ...(options.sample ? { sample: options.sample } : {}),
      ...(options.backoff ? { backoff: options.backoff } : {}),
      ...(options.connectTimeoutMs ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
      inputsFile: join(paths.credentials, 'mcp-inputs.json'),
      auth: {
        dir: join(paths.credentials, 'mcp'),
        env: options.env ?? process.env,
        authorizationRequired: (server, url) => {
          this.log.warn(`MCP server "${server}" needs a login: run \`claw mcp login ${server}\` (or open the URL shown in the TUI)`);
          events.emit('mcp.auth.required', { server, url, at: clock.now() });
        },
      },
      onChange: (change) => {
        const servers = this.manager.status();
        events.emit('mcp.changed', { ...change, servers });
        this.#logChanges(servers);
      },
    });
  }

  start(): void {
    this.manager.start();
  }

  /** Brings the running servers in line with `mcpServers` after a config reload. */
  async reload(): Promise<void> {
    await this.manager.update(this.config.mcpServers);
    this.manager.rootsChanged();
  }

  status(): McpServerStatus[] {
    return this.manager.status();
  }

  health(): ServiceHealth {
    // A broken MCP server must not make the daemon look unhealthy (a supervisor would restart it for nothing).
    const failing = this.status()
      .filter((server) => server.state === 'error')
      .map((server) => server.name);
    return failing.length === 0 ? { ok: true } : { ok: true, detail: `MCP servers reconnecting: ${failing.join(', ')}` };
  }

  async stop(): Promise<void> {
    this.elicitations.close();
    this.#unsubscribe();
    await this.manager.close();
  }

  /** Logs each new error once, not every retry with the same cause. */
  #logChanges(servers: readonly McpServerStatus[]): void {
    for (const server of servers) {
      const key = server.state === 'error' ? server.lastError : server.state;
      if (this.#reported.get(server.name) === key) continue;
      this.#reported.set(server.name, key);
      if (server.state === 'error') {
        const stderr = server.lastStderr && !server.lastError?.includes(server.lastStderr) ? `; its last stderr line: "${server.lastStderr}"` : '';
        this.log.warn(
          `MCP server "${server.name}" failed: ${server.lastError ?? 'unknown error'}${stderr}; retrying (\`claw mcp logs ${server.name}\` shows its stderr)`,
        );
      } else if (server.state === 'ready') {
        const skipped = server.skippedTools?.length ? `; left out ${server.skippedTools.map((tool) => tool.name).join(', ')} (task-only)` : '';
        this.log.info(`MCP server "${server.name}" ready with ${server.toolCount} tools${skipped}`);
      }
    }
  }
}
