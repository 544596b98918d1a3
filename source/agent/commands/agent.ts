import { ClawError, type AgentInfo } from '../../protocol/index.js';
import { mainSessionKey, parseSessionKey } from '../../routing/index.js';
import type { SlashCommand } from './types.js';

type AgentEntry = Pick<AgentInfo, 'id' | 'name' | 'default'>;

/**
 * `/agent [ID]`: lists the agents, or names the main session of agent ID.
 * The answer's `data.sessionKey` is where a client switches to (the TUI
 * does); a channel has its route bound by bindings and only reads the reply.
 */
export function createAgentSlashCommand(agents: () => readonly AgentEntry[]): SlashCommand {
  return {
    name: 'agent',
    ownerOnly: true,
    aliases: ['agents'],
    args: '[id]',
    description: "List the agents, or switch to agent ID's main session.",
    argument: () => ({
      name: 'id',
      required: false,
      values: agents().map((agent) => ({ value: agent.id, ...(agent.name ? { description: agent.name } : {}) })),
    }),
    async run({ sessionKey, args, host }) {
      const all = agents();
      const current = parseSessionKey(sessionKey)?.agentId ?? all.find((agent) => agent.default)?.id;
      if (!args) {
        const lines = all.map(
          (agent) => `${agent.id === current ? '*' : ' '} ${agent.id}${agent.name ? ` (${agent.name})` : ''}${agent.default ? ' · default' : ''}`,
        );
        return { reply: `${lines.join('\n')}\n/agent ID switches to that agent's main session.`, data: { agents: all, current } };
      }
      const id = args.split(/\s+/)[0]!.toLowerCase();
      const target = all.find((agent) => agent.id === id);
      if (!target)
        throw new ClawError('not_found', `No agent "${id}". Agents: ${all.map((agent) => agent.id).join(', ')}; \`claw agents add ${id}\` adds one.`);
      const session = await host.session(mainSessionKey(target.id));
      return {
        reply: `Now talking to agent ${target.id}${target.name ? ` (${target.name})` : ''} in ${session.key}.`,
        data: { agentId: target.id, sessionKey: session.key },
      };
    },
  };
}
