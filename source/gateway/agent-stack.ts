import { AgentRuntime } from '../agent/index.js';
import { ClawError } from '../protocol/index.js';
import { createProviders, type Providers } from '../providers/index.js';
import type { ToolsRuntime } from '../tools/index.js';
import type { TurnRunner } from '../queue/index.js';
import { agentTurnRunner } from './agent-turn-runner.js';
import { describeSessionKey } from './approvals-module.js';
import type { GatewayModule, ModuleContext, ModuleFactory } from './module.js';

export interface AgentStackOptions {
  /**
   * The gateway's one tools runtime (registry + approval inbox), shared with
   * the approvals and MCP modules so every tool and every approval is the same
   * one the operator sees.
   */
  tools: (context: ModuleContext) => ToolsRuntime;
}

export interface AgentStack {
  /** Put before the sessions module: it builds the runtime from the gateway's config. */
  module: ModuleFactory;
  /** Hand to sessionsModule({ runner }). */
  runner: TurnRunner;
  /** Set once `module` has started. */
  runtime(): AgentRuntime | undefined;
  providers(): Providers | undefined;
}

/**
 * The agent runtime as a daemon module: the runtime needs the module context
 * (config, paths), while the sessions module needs a runner when the module
 * list is built, so the runner delegates to the runtime once it exists.
 */
export function agentStack(options: AgentStackOptions): AgentStack {
  let runtime: AgentRuntime | undefined;
  let providers: Providers | undefined;
  const module: ModuleFactory = (context): GatewayModule => {
    providers = createProviders({ config: context.config, paths: context.paths });
    const tools = options.tools(context);
    runtime = new AgentRuntime({
      config: context.config,
      paths: context.paths,
      providers,
      registry: tools.registry,
      approvals: (sessionKey) => tools.inbox.gate(describeSessionKey(sessionKey).agentId, sessionKey),
      now: context.now,
      publishContext: (payload) => context.bus.emit('context', payload),
    });
    return { name: 'agent-runtime', handlers: {} };
  };
  const delegate = agentTurnRunnerLazy(() => runtime);
  return { module, runner: delegate, runtime: () => runtime, providers: () => providers };
}

function agentTurnRunnerLazy(current: () => AgentRuntime | undefined): TurnRunner {
  return {
    run(turn) {
      const runtime = current();
      if (!runtime) throw new ClawError('unavailable', 'The agent runtime has not started yet; resend the message in a moment.');
      return agentTurnRunner(runtime).run(turn);
    },
  };
}
