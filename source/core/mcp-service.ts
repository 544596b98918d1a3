import type { ClawConfig } from '../config/index.js';
import { McpManager, type McpManagerOptions, type McpServerStatus, type ToolRegistry } from '../tools/index.js';
import type { Logger } from './logger.js';
import type { Service, ServiceHealth } from './service.js';

type ServerConfig = ClawConfig['mcpServers'][string];

export interface McpServiceOptions {
  backoff?: McpManagerOptions['backoff'];
  connectTimeoutMs?: number;
}

/**
 * The `mcpServers` of claw.json, connected in the background (start-up never
 * waits for them). One manager per server, so a config reload connects new
 * servers, drops removed ones and restarts changed ones while the others keep
 * their connections.
 */
export class McpService implements Service {
  readonly name = 'mcp';
  readonly #servers = new Map<string, { config: string; manager: McpManager }>();
  readonly #reported = new Map<string, string | undefined>();
  #changes: Promise<void> = Promise.resolve();

  constructor(
    private readonly config: ClawConfig,
    private readonly registry: ToolRegistry,
    private readonly log: Logger,
    private readonly now: () => number,
    private readonly options: McpServiceOptions = {},
    private readonly onChange: () => void = () => undefined,
  ) {}

  start(): Promise<void> {
    return this.reload();
  }

  /** Brings the running servers in line with `mcpServers` (serialised: reloads never interleave). */
  reload(): Promise<void> {
    this.#changes = this.#changes.then(() => this.#apply(this.config.mcpServers));
    return this.#changes;
  }

  status(): McpServerStatus[] {
    return [...this.#servers.values()].flatMap(({ manager }) => manager.status());
  }

  health(): ServiceHealth {
    // A broken MCP server must not make the daemon look unhealthy (a supervisor would restart it for nothing).
    const failing = this.status().filter((server) => server.state === 'error').map((server) => server.name);
    return failing.length === 0 ? { ok: true } : { ok: true, detail: `MCP servers reconnecting: ${failing.join(', ')}` };
  }

  async stop(): Promise<void> {
    await this.#changes;
    await Promise.all([...this.#servers.values()].map(({ manager }) => manager.close()));
    this.#servers.clear();
  }

  async #apply(wanted: Record<string, ServerConfig>): Promise<void> {
    for (const [name, running] of [...this.#servers]) {
      if (wanted[name] !== undefined && JSON.stringify(wanted[name]) === running.config) continue;
      this.#servers.delete(name);
      this.#reported.delete(name);
      await running.manager.close();
      this.log.info(`MCP server "${name}" ${wanted[name] === undefined ? 'removed' : 'changed; reconnecting'}`);
    }
    const added = Object.entries(wanted).filter(([name]) => !this.#servers.has(name));
    for (const [name, server] of added) {
      const manager = new McpManager({ [name]: server }, {
        registry: this.registry,
        now: this.now,
        ...(this.options.backoff ? { backoff: this.options.backoff } : {}),
        ...(this.options.connectTimeoutMs ? { connectTimeoutMs: this.options.connectTimeoutMs } : {}),
        onChange: () => {
          this.#logChange(manager);
          this.onChange();
        },
      });
      this.#servers.set(name, { config: JSON.stringify(server), manager });
      manager.start();
    }
    this.onChange();
  }

  /** Logs each new error once, not every retry with the same cause. */
  #logChange(manager: McpManager): void {
    for (const server of manager.status()) {
      const key = server.state === 'error' ? server.lastError : server.state;
      if (this.#reported.get(server.name) === key) continue;
      this.#reported.set(server.name, key);
      if (server.state === 'error') this.log.warn(`MCP server "${server.name}" failed: ${server.lastError ?? 'unknown error'}; retrying`);
      else if (server.state === 'ready') this.log.info(`MCP server "${server.name}" ready with ${server.toolCount} tools`);
    }
  }
}
