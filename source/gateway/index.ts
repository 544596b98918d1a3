export { GatewayServer, isLoopbackBind, type GatewayOptions } from './gateway-server.js';
export { coreModule, coreGatewayModule, type CoreModuleOptions } from './core-module.js';
export type { GatewayModule, ModuleContext, ModuleFactory, HandlerTable, MethodHandler, CallerInfo, ModuleHealth } from './module.js';
