import type { ModuleFactory } from './module.js';
import { memoryModule } from './memory-module.js';
import { sessionsModule } from './sessions-module.js';
import { mcpModule } from './mcp-module.js';
import { approvalsModule } from './approvals-module.js';

/**
 * The subsystems the daemon runs, in start order (closed in reverse). Each
 * subsystem contributes one factory.
 */
export function defaultModules(): ModuleFactory[] {
  return [memoryModule, sessionsModule(), mcpModule(), approvalsModule()];
}
