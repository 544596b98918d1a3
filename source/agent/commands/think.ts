import { ClawError, thinkingLevelName, type CommandData } from '../../protocol/index.js';
import type { SlashCommand } from './types.js';

export const thinkCommand: SlashCommand = {
  name: 'think',
  aliases: ['thinking'],
  args: 'off|minimal|low|medium|high',
  description: 'Show or set how much the model reasons before answering.',
  argument: () => ({ name: 'level', required: false, values: thinkingLevelName.options.map((value) => ({ value })) }),
  async run({ sessionKey, args, host, resolveThinking }) {
    if (!args) {
      const session = await host.session(sessionKey);
      const effective = resolveThinking(session);
      return {
        reply: `thinking: ${effective}${session.thinking ? ' (this session)' : " (the agent's default; /think LEVEL sets it for this session)"}`,
        data: { thinking: session.thinking, effective } satisfies CommandData<'think'>,
      };
    }
    const level = thinkingLevelName.safeParse(args.toLowerCase());
    if (!level.success) throw new ClawError('bad_request', `Unknown thinking level "${args}". Use one of: ${thinkingLevelName.options.join(', ')}.`);
    await host.patch(sessionKey, { thinking: level.data });
    return { reply: `thinking set to ${level.data}`, data: { thinking: level.data } satisfies CommandData<'think'> };
  },
};
