import { AgentRuntime } from '../agent/index.js';
import { ClawError } from '../protocol/index.js';
import { createProviders, type Providers } from '../providers/index.js';
import { createFsTools, ToolRegistry, type ApprovalGate, type ToolDefinition } from '../tools/index.js';
import type { TurnRunner } from '../queue/index.js';
import { agentTurnRunner } from './agent-turn-runner.js';
import type { GatewayModule, ModuleContext, ModuleFactory } from './module.js';

const MAX_READ_BYTES = 1_000_000;

/**
 * Until the approvals inbox hands out gates, anything that needs an operator
 * decision is refused with a reason the model can relay.
 */
const noApprovalsGate: ApprovalGate = {
  async request() {
    return { id: 'none', approved: false, status: 'denied' };
  },
  approvedForSession: () => false,
};

export interface AgentStackOptions {
  /** Extra tools (exec, web, memory, MCP …) registered next to the fs tools. */
  tools?: (context: ModuleContext) => ToolDefinition[];
  approvals?: (sessionKey: string) => ApprovalGate;
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
 * The agent runtime as daemon modules: the runtime needs the module context
 * (config, paths), while the sessions module needs a runner when the module
 * list is built, so the runner delegates to the runtime once it exists.
 */
export function agentStack(options: AgentStackOptions = {}): AgentStack {
  let runtime: AgentRuntime | undefined;
  let providers: Providers | undefined;
  const module: ModuleFactory = (context): GatewayModule => {
    providers = createProviders({ config: context.config, paths: context.paths });
    const registry = new ToolRegistry();
    const fs = createFsTools({ roots: context.config.tools.fsRoots, maxReadBytes: MAX_READ_BYTES }) as unknown as ToolDefinition[];
    for (const tool of [...fs, ...(options.tools?.(context) ?? [])]) registry.register(tool);
    runtime = new AgentRuntime({
      config: context.config,
      paths: context.paths,
      providers,
      registry,
      approvals: options.approvals ?? (() => noApprovalsGate),
      now: context.now,
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
