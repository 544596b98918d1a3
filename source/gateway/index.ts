export { GatewayServer, isLoopbackBind, type GatewayOptions } from './gateway-server.js';
export { GatewayClient, type GatewayClientOptions, type ConnectionState } from './client.js';
export { runGatewayDaemon, type DaemonOptions } from './daemon.js';
export {
  connectLocal,
  findLocalGateway,
  gatewayStatus,
  restartGateway,
  startGatewayDetached,
  stopGateway,
  type GatewayStatus,
  type LocalGateway,
} from './daemon-control.js';
export { readGatewayInfoSync, dialHost, type GatewayInfo } from './gateway-info.js';
export { ensureGatewayTokenSync, readGatewayTokenSync, hashToken, createScopedToken, revokeScopedToken, listScopedTokens, parseScopes, type ScopedToken } from './token-store.js';
export { createFileLogger, silentLogger, redactSecrets, type Logger } from './logger.js';
export { EventBus } from './event-bus.js';
export { GatewayLockedError } from './state-lock.js';
export type { GatewayModule, ModuleContext, ModuleFactory, HandlerTable, MethodHandler, CallerInfo, ModuleHealth } from './module.js';
export * from './remote/index.js';
export * from './supervision/index.js';
export { sessionsModule, mcpModule } from './lazy-modules.js';
export type { SessionsModuleOptions } from './sessions-module.js';
export type { McpModuleOptions } from './mcp-module.js';
export * from './doctor/index.js';
