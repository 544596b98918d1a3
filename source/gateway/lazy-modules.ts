import type { McpModuleOptions } from './mcp-module.js';
import type { ModuleFactory } from './module.js';
import type { SessionsModuleOptions } from './sessions-module.js';

/*
 * The module factories the index hands out load their subsystem only when a
 * gateway builds them: clients that import the gateway index (`claw status`,
 * the TUI) must not pay for SQLite, MCP and the agent runtime at start-up.
 */

export function sessionsModule(options: SessionsModuleOptions = {}): ModuleFactory {
  return async (context) => (await import('./sessions-module.js')).sessionsModule(options)(context);
}

export function mcpModule(options: McpModuleOptions = {}): ModuleFactory {
  return async (context) => (await import('./mcp-module.js')).mcpModule(options)(context);
}
