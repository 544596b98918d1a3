export { createFileLogger, silentLogger, redactSecrets, type Logger } from './logger.js';
export { EventBus } from './event-bus.js';
