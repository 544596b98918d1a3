import { CommandRegistry, type AgentRuntime, type CommandHost } from '../agent/index.js';
import { ClawError } from '../protocol/index.js';
import type { Providers } from '../providers/index.js';
import type { GatewayModule, ModuleFactory } from './module.js';

export interface AgentModuleOptions {
  runtime: AgentRuntime;
  providers: Providers;
  /**
   * Sessions and lanes as commands need them (see sessionCommandHost); a
   * function when the sessions module creates them after this module.
   */
  host: CommandHost | (() => CommandHost | undefined);
  commands?: CommandRegistry;
}

/** Serves `commands.run` and `commands.list` over the agent's slash-command registry. */
export function agentModule(options: AgentModuleOptions): ModuleFactory {
  return ({ bus }): GatewayModule => {
    const commands = options.commands ?? new CommandRegistry();
    return {
      name: 'agent',
      handlers: {
        'commands.list': () => ({ commands: commands.info() }),
        'commands.run': async ({ sessionKey, text }) => {
          const host = typeof options.host === 'function' ? options.host() : options.host;
          if (!host) throw new ClawError('unavailable', 'Sessions are still starting; run the command again in a moment.');
          const result = await commands.run(text, {
            sessionKey,
            host,
            providers: options.providers,
            resolveModel: (session) => options.runtime.resolveModel(session),
            lastError: (key) => options.runtime.lastError(key),
            contextWindow: (session, runId) =>
              options.runtime.contextWindow(session, { chat: (p) => bus.emit('chat', p), agent: (p) => bus.emit('agent', p), context: (p) => bus.emit('context', p) }, runId),
            contextReport: (session) => options.runtime.contextReport(session),
          });
          return result.data === undefined ? { reply: result.reply } : { reply: result.reply, data: result.data };
        },
      },
    };
  };
}
