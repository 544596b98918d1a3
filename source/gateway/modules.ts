import type { ModuleFactory } from './module.js';
import { memoryModule } from './memory-module.js';
import { sessionsModule } from './sessions-module.js';
import { mcpModule } from './mcp-module.js';
import { approvalsModule } from './approvals-module.js';
import { agentStack } from './agent-stack.js';
import { testRunnerFromEnv } from '../queue/index.js';

/**
 * The subsystems the daemon runs, in start order (closed in reverse). Each
 * subsystem contributes one factory.
 */
export function defaultModules(): ModuleFactory[] {
  const agent = agentStack();
  // CLAW_TEST_RUNNER (tests only) still replaces the model with a deterministic runner.
  const runner = testRunnerFromEnv() ?? agent.runner;
  return [memoryModule, agent.module, sessionsModule({ runner }), mcpModule(), approvalsModule()];
}
