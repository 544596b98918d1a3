import type { ModuleFactory } from './module.js';
import { memoryModule } from './memory-module.js';

/**
 * The subsystems the daemon runs, in start order (closed in reverse). Each
 * subsystem contributes one factory.
 */
export function defaultModules(): ModuleFactory[] {
  return [memoryModule];
}
