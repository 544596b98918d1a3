export { runGatewayDaemon, type DaemonOptions } from './run-daemon.js';
export { GatewayLockedError } from './state-lock.js';
export * from './supervision/index.js';
export * from './doctor/index.js';
