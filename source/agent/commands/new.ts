import { checkModelRef } from './model.js';
import type { SlashCommand } from './types.js';

export const newCommand: SlashCommand = {
  name: 'new',
  aliases: [],
  args: '[provider/model]',
  description: 'Start a fresh transcript (the old one is archived), optionally with a model.',
  async run({ sessionKey, args, host, providers }) {
    if (args) checkModelRef(providers, args);
    const session = await host.newSession(sessionKey, args || undefined);
    return { reply: `new session ${session.sessionId}${args ? ` with ${args}` : ''}`, data: { session } };
  },
};
