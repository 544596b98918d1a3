import type { SlashCommand } from './types.js';

export const resetCommand: SlashCommand = {
  name: 'reset',
  aliases: [],
  args: '',
  description: 'Start a new transcript keeping this session\'s settings',
  async run(_args, { controller, store }) {
    const { session } = await controller.call('sessions.reset', { key: store.getState().currentKey });
    controller.notice(`Session reset; new transcript ${session.sessionId}.`);
  },
};
