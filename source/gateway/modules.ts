import { createToolsRuntime, type ToolsRuntime } from '../tools/index.js';
import { testRunnerFromEnv } from '../queue/index.js';
import type { ModuleContext, ModuleFactory } from './module.js';
import { memoryModule } from './memory-module.js';
import { sessionsModule } from './sessions-module.js';
import { mcpModule } from './mcp-module.js';
import { approvalsModule } from './approvals-module.js';
import { agentStack } from './agent-stack.js';
import { agentModule } from './agent-module.js';
import { sessionCommandHost, type SessionServices } from './agent-command-host.js';

/**
 * The subsystems the daemon runs, in start order (closed in reverse). This is
 * the composition root: the one tools runtime (registry + approval inbox) is
 * shared by the agent, the approvals module and MCP; the slash commands see
 * the sessions module's sessions and lanes.
 */
export function defaultModules(): ModuleFactory[] {
  let tools: ToolsRuntime | undefined;
  const sharedTools = (context: ModuleContext): ToolsRuntime =>
    (tools ??= createToolsRuntime({ config: context.config, paths: context.paths, now: context.now }));
  const agent = agentStack({ tools: sharedTools });
  let services: SessionServices | undefined;
  // CLAW_TEST_RUNNER (tests only) replaces the model with a deterministic runner.
  const runner = testRunnerFromEnv() ?? agent.runner;
  const commands: ModuleFactory = (context) => {
    const runtime = agent.runtime();
    const providers = agent.providers();
    if (!runtime || !providers) throw new Error('the agent runtime must start before the commands module');
    return agentModule({ runtime, providers, host: () => (services ? sessionCommandHost(services) : undefined) })(context);
  };
  return [
    memoryModule,
    agent.module,
    sessionsModule({ runner, onServices: (s) => { services = s; } }),
    commands,
    mcpModule({ registry: () => tools?.registry }),
    approvalsModule({ runtime: sharedTools }),
  ];
}
