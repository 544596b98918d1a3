import type { SlashCommand } from './types.js';

/**
 * `/agent [ID]`: the gateway's command (it knows the agents and makes the
 * main session); the TUI only follows its answer to the session it names.
 */
export const agentCommand: SlashCommand = {
  name: 'agent',
  aliases: ['agents'],
  args: '[id]',
  description: "List the agents, or switch to agent ID's main session",
  complete: (partial, { controller }) =>
    (
      controller
        .commands()
        .find((command) => command.name === 'agent')
        ?.arguments?.[0]?.values?.map((value) => value.value) ?? []
    ).filter((id) => id.startsWith(partial)),
  async run(args, { controller, store }) {
    const text = `/agent ${args}`.trim();
    const { reply, data } = await controller.call('commands.run', { sessionKey: store.getState().currentKey, text });
    const target = (data as { sessionKey?: unknown } | undefined)?.sessionKey;
    if (typeof target === 'string') await controller.switchSession(target);
    controller.notice(reply);
  },
};
