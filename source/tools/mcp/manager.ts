import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolRegistry } from '../registry.js';
import { McpConnection, type BackoffOptions, type McpServerConfig, type McpServerStatus } from './connection.js';
import { McpApprovalMemory, mcpToolDefinition } from './mcp-tool.js';
import { mcpToolName } from './names.js';

export interface McpManagerOptions {
  /** Where the servers' tools are registered (and unregistered when they go away). */
  registry: ToolRegistry;
  backoff?: BackoffOptions;
  connectTimeoutMs?: number;
  now?: () => number;
  /** Called after any server changes state or tools. */
  onChange?: () => void;
}

const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 1000, maxMs: 60_000 };

/**
 * Runs every server in `mcpServers`: connects them, keeps their tools in the
 * registry as `mcp__<server>__<tool>`, refreshes on list_changed, reconnects
 * after failures. Last known tools stay registered while a server reconnects,
 * so a call then gets a clear "not connected" result instead of vanishing.
 */
export class McpManager {
  readonly #connections = new Map<string, McpConnection>();
  readonly #registered = new Map<string, string[]>();
  readonly #memory = new McpApprovalMemory();

  constructor(servers: Record<string, McpServerConfig>, private readonly options: McpManagerOptions) {
    const now = options.now ?? Date.now;
    for (const [name, config] of Object.entries(servers)) {
      const connection: McpConnection = new McpConnection(name, config, {
        backoff: options.backoff ?? DEFAULT_BACKOFF,
        connectTimeoutMs: options.connectTimeoutMs ?? 30_000,
        now,
        onTools: (tools) => this.#sync(connection, tools),
        onState: () => options.onChange?.(),
      });
      this.#connections.set(name, connection);
    }
  }

  start(): void {
    for (const connection of this.#connections.values()) connection.start();
  }

  status(): McpServerStatus[] {
    return [...this.#connections.values()].map((connection) => connection.status(this.#registered.get(connection.name) ?? []));
  }

  async close(): Promise<void> {
    await Promise.all([...this.#connections.values()].map((connection) => connection.close()));
    for (const names of this.#registered.values()) for (const name of names) this.options.registry.unregister(name);
    this.#registered.clear();
  }

  #sync(connection: McpConnection, tools: Tool[]): void {
    const { registry } = this.options;
    const previous = this.#registered.get(connection.name) ?? [];
    for (const name of previous) registry.unregister(name);
    const names: string[] = [];
    for (const tool of tools) {
      const name = mcpToolName(connection.name, tool.name, (candidate) => names.includes(candidate) || registry.get(candidate) !== undefined);
      registry.register(mcpToolDefinition(name, tool, connection, this.#memory));
      names.push(name);
    }
    this.#registered.set(connection.name, names);
    this.options.onChange?.();
  }
}
