import { checkModelRef, modelArgument } from './model.js';
import type { SlashCommand } from './types.js';

export const newCommand: SlashCommand = {
  name: 'new',
  aliases: [],
  args: '[provider/model]',
  description: 'Start a fresh transcript (the old one is archived), optionally with a model.',
  argument: (providers) => modelArgument(providers, 'model', false),
  async run({ sessionKey, args, host, providers }) {
    if (args) await checkModelRef(providers, args);
    const session = await host.newSession(sessionKey, args || undefined);
    return { reply: `new session ${session.sessionId}${args ? ` with ${args}` : ''}`, data: { session } };
  },
};
