import { thinkingLevelName } from '../../protocol/index.js';
import type { SlashCommand } from './types.js';

export const thinkCommand: SlashCommand = {
  name: 'think',
  aliases: ['thinking'],
  args: 'off|minimal|low|medium|high',
  description: 'Set the thinking level of this session',
  complete: (partial) => thinkingLevelName.options.filter((o) => o.startsWith(partial)),
  async run(args, { controller, store }) {
    const level = thinkingLevelName.safeParse(args.trim());
    if (!level.success) {
      controller.error(`"${args.trim()}" is not a thinking level.`, `Use one of: ${thinkingLevelName.options.join(', ')}.`);
      return;
    }
    await controller.call('sessions.patch', { key: store.getState().currentKey, patch: { thinking: level.data } });
    controller.notice(`Thinking level: ${level.data}.`);
  },
};
