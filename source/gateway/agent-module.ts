import { CommandRegistry, type AgentRuntime, type CommandHost } from '../agent/index.js';
import type { Providers } from '../providers/index.js';
import type { GatewayModule, ModuleFactory } from './module.js';

export interface AgentModuleOptions {
  runtime: AgentRuntime;
  providers: Providers;
  /** Sessions and lanes as commands need them (see registryCommandHost). */
  host: CommandHost;
  commands?: CommandRegistry;
}

/** Serves `commands.run` and `commands.list` over the agent's slash-command registry. */
export function agentModule(options: AgentModuleOptions): ModuleFactory {
  return (): GatewayModule => {
    const commands = options.commands ?? new CommandRegistry();
    return {
      name: 'agent',
      handlers: {
        'commands.list': () => ({ commands: commands.info() }),
        'commands.run': async ({ sessionKey, text }) => {
          const result = await commands.run(text, {
            sessionKey,
            host: options.host,
            providers: options.providers,
            resolveModel: (session) => options.runtime.resolveModel(session),
            lastError: (key) => options.runtime.lastError(key),
          });
          return result.data === undefined ? { reply: result.reply } : { reply: result.reply, data: result.data };
        },
      },
    };
  };
}
