export * from './errors.js';
export * from './frames.js';
export * from './define.js';
export * from './registry.js';
export * from './methods/connect.js';
export * from './methods/gateway.js';
