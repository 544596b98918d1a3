import { gatewayMethods } from './gateway.js';

/**
 * Every RPC method the gateway serves. A subsystem adds its methods in a file
 * of its own in this folder and spreads them here.
 */
export const methods = {
  ...gatewayMethods,
};
