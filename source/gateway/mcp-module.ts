import { McpManager, ToolRegistry, type McpManagerOptions } from '../tools/index.js';
import type { GatewayModule, ModuleFactory } from './module.js';

export interface McpModuleOptions {
  /**
   * The registry agent turns use, so MCP tools reach the model; a getter when
   * that registry is only built by an earlier module's start. Without one the
   * module keeps its own (servers still connect and `mcp.list` still reports).
   */
  registry?: ToolRegistry | (() => ToolRegistry | undefined);
  backoff?: McpManagerOptions['backoff'];
  connectTimeoutMs?: number;
}

/** Connects the `mcpServers` from claw.json in the background and serves `mcp.list`. */
export function mcpModule(options: McpModuleOptions = {}): ModuleFactory {
  return ({ config, log, now }): GatewayModule => {
    const given = typeof options.registry === 'function' ? options.registry() : options.registry;
    const registry = given ?? new ToolRegistry();
    const reported = new Map<string, string | undefined>();
    const manager: McpManager = new McpManager(config.mcpServers, {
      registry,
      now,
      ...(options.backoff ? { backoff: options.backoff } : {}),
      ...(options.connectTimeoutMs ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
      onChange: () => {
        // Log each new error once, not every retry with the same cause.
        for (const server of manager.status()) {
          const key = server.state === 'error' ? server.lastError : server.state;
          if (reported.get(server.name) === key) continue;
          reported.set(server.name, key);
          if (server.state === 'error') log.warn(`MCP server "${server.name}" failed: ${server.lastError ?? 'unknown error'}; retrying`);
          else if (server.state === 'ready') log.info(`MCP server "${server.name}" ready with ${server.toolCount} tools`);
        }
      },
    });
    manager.start();
    return {
      name: 'mcp',
      handlers: {
        'mcp.list': () => ({ servers: manager.status() }),
      },
      health() {
        // A broken MCP server must not make the daemon look unhealthy (a supervisor would restart it for nothing).
        const failing = manager.status().filter((server) => server.state === 'error').map((server) => server.name);
        return failing.length === 0 ? { ok: true } : { ok: true, detail: `MCP servers reconnecting: ${failing.join(', ')}` };
      },
      async close() {
        await manager.close();
      },
    };
  };
}
