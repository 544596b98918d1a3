export { GatewayClient, type GatewayClientOptions, type ConnectionState } from './gateway-client.js';
export {
  connectLocal,
  findLocalGateway,
  gatewayStatus,
  restartGateway,
  startGatewayDetached,
  stopGateway,
  type GatewayStatus,
  type LocalGateway,
} from './local-gateway.js';
export { readGatewayInfoSync, writeGatewayInfoSync, removeGatewayInfoSync, dialHost, type GatewayInfo } from './gateway-info.js';
export { isProcessAlive } from './process-alive.js';
export * from './remote/index.js';
