import type { SlashCommand } from './types.js';

export const resetCommand: SlashCommand = {
  name: 'reset',
  aliases: [],
  args: '',
  description: 'Start a fresh transcript, keeping the session settings.',
  async run({ sessionKey, host }) {
    const session = await host.reset(sessionKey);
    return { reply: `session reset; new transcript ${session.sessionId}`, data: { session } };
  },
};
