export { GatewayServer, isLoopbackBind, type GatewayOptions } from './gateway-server.js';
export { hashToken } from './token-store.js';
export type { GatewayModule, ModuleContext, ModuleFactory, HandlerTable, MethodHandler, CallerInfo, ModuleHealth } from './module.js';
export { sessionsModule, mcpModule } from './lazy-modules.js';
export type { SessionsModuleOptions } from './sessions-module.js';
export type { McpModuleOptions } from './mcp-module.js';
