import { resolve } from 'node:path';
import { DEFAULT_AGENT_ID, type ClawConfig, type StatePaths } from '../config/index.js';
import { ClawError } from '../protocol/index.js';
import { ElicitationInbox, McpCallError, McpManager, ToolRegistry, mcpApprovalsFile, type McpManagerOptions } from '../tools/index.js';
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
  /** How long a server's question waits for the operator before it is declined. */
  elicitationTimeoutMs?: number;
  /** The agent's model for servers configured with `sampling: true`; without it no server is offered sampling. */
  sample?: McpManagerOptions['sample'];
}

/** The folders servers may work in: every agent's workspace and `tools.fsRoots`. */
function rootFolders(config: ClawConfig, paths: StatePaths): string[] {
  const workspaces = [paths.workspace(DEFAULT_AGENT_ID), ...config.agents.list.map((agent) => agent.workspace ?? paths.workspace(agent.id))];
  return [...workspaces, ...config.tools.fsRoots].map((folder) => resolve(folder));
}

/** MCP failures a client can act on become clear request errors instead of internal ones. */
async function asRequest<T>(work: () => Promise<T> | T): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof McpCallError) throw new ClawError('bad_request', error.message);
    throw error;
  }
}

/**
 * Connects the `mcpServers` from claw.json in the background and serves the
 * `mcp.*` methods: servers, logs, prompts, resources and server questions.
 * Every change is pushed as `mcp.changed` so clients need not poll.
 */
export function mcpModule(options: McpModuleOptions = {}): ModuleFactory {
  return ({ config, paths, log, now, bus }): GatewayModule => {
    const given = typeof options.registry === 'function' ? options.registry() : options.registry;
    const registry = given ?? new ToolRegistry();
    const reported = new Map<string, string | undefined>();
    const elicitations = new ElicitationInbox({ now, ...(options.elicitationTimeoutMs ? { timeoutMs: options.elicitationTimeoutMs } : {}) });
    const unsubscribe = elicitations.on((event, elicitation) => bus.emit(event === 'requested' ? 'mcp.elicitation.requested' : 'mcp.elicitation.resolved', { elicitation }));
    const manager: McpManager = new McpManager(config.mcpServers, {
      registry,
      now,
      approvalsFile: mcpApprovalsFile(paths),
      roots: () => rootFolders(config, paths),
      elicit: (server, params, signal) => elicitations.ask(server, params, signal),
      ...(options.sample ? { sample: options.sample } : {}),
      ...(options.backoff ? { backoff: options.backoff } : {}),
      ...(options.connectTimeoutMs ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
      onChange: (change) => {
        const servers = manager.status();
        bus.emit('mcp.changed', { ...change, servers });
        // Log each new error once, not every retry with the same cause.
        for (const server of servers) {
          const key = server.state === 'error' ? server.lastError : server.state;
          if (reported.get(server.name) === key) continue;
          reported.set(server.name, key);
          if (server.state === 'error') {
            const stderr = server.lastStderr && !server.lastError?.includes(server.lastStderr) ? `; its last stderr line: "${server.lastStderr}"` : '';
            log.warn(`MCP server "${server.name}" failed: ${server.lastError ?? 'unknown error'}${stderr}; retrying (\`claw mcp logs ${server.name}\` shows its stderr)`);
          } else if (server.state === 'ready') {
            const skipped = server.skippedTools?.length ? `; left out ${server.skippedTools.map((tool) => tool.name).join(', ')} (task-only)` : '';
            log.info(`MCP server "${server.name}" ready with ${server.toolCount} tools${skipped}`);
          }
        }
      },
    });
    if (!options.sample) {
      for (const [name, server] of Object.entries(config.mcpServers)) {
        if (server.sampling) log.warn(`MCP server "${name}" has sampling: true, but this gateway cannot lend it the agent's model yet; the server is connected without sampling.`);
      }
    }
    manager.start();
    return {
      name: 'mcp',
      handlers: {
        'mcp.list': () => ({ servers: manager.status() }),
        'mcp.logs': (params) => asRequest(() => ({ server: params.server, lines: manager.logs(params.server) })),
        'mcp.prompts.list': (params) => asRequest(() => ({ prompts: manager.prompts(params?.server) })),
        'mcp.prompts.get': (params) => asRequest(() => manager.getPrompt(params.server, params.prompt, params.arguments)),
        'mcp.prompts.complete': (params) => asRequest(async () => ({ values: await manager.completePrompt(params.server, params.prompt, params.argument, params.value, params.context) })),
        'mcp.resources.list': (params) => asRequest(() => manager.resources(params?.server)),
        'mcp.resources.read': (params) => asRequest(() => manager.readResource(params.server, params.uri)),
        'mcp.elicitation.list': () => ({ elicitations: elicitations.pending() }),
        'mcp.elicitation.respond': (params, caller) => {
          try {
            const answer = params.content ? { action: params.action, content: params.content } : { action: params.action };
            return { elicitation: elicitations.respond(params.id, answer, caller.clientId) };
          } catch (error) {
            throw new ClawError('bad_request', error instanceof Error ? error.message : String(error));
          }
        },
      },
      snapshot: () => ({ mcpElicitations: elicitations.pending() }),
      health() {
        // A broken MCP server must not make the daemon look unhealthy (a supervisor would restart it for nothing).
        const failing = manager.status().filter((server) => server.state === 'error').map((server) => server.name);
        return failing.length === 0 ? { ok: true } : { ok: true, detail: `MCP servers reconnecting: ${failing.join(', ')}` };
      },
      async close() {
        elicitations.close();
        unsubscribe();
        await manager.close();
      },
    };
  };
}
