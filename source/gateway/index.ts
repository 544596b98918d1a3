export { GatewayServer, isLoopbackBind, type GatewayOptions } from './gateway-server.js';
export { coreGatewayModule } from './core-adapter.js';
export type { GatewayModule, HandlerTable, MethodHandler, CallerInfo, ModuleHealth } from './module.js';
