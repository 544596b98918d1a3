import type { SlashCommand } from './types.js';

export const newCommand: SlashCommand = {
  name: 'new',
  aliases: [],
  args: '[model]',
  description: 'Start a new session (the old transcript is archived), optionally with a model',
  async run(args, { controller, store }) {
    const model = args.trim();
    const { session } = await controller.call('sessions.new', { key: store.getState().currentKey, ...(model ? { model } : {}) });
    controller.notice(`New session ${session.sessionId}${session.model ? ` with ${session.model}` : ''}.`);
  },
};
