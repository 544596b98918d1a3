import type { CommandData } from '../../protocol/index.js';
import type { SlashCommand } from './types.js';

export const retryCommand: SlashCommand = {
  name: 'retry',
  aliases: [],
  args: '',
  description: 'Run the last message again (after fixing a key or switching models).',
  async run({ sessionKey, host }) {
    const { runId } = await host.retry(sessionKey);
    return { reply: 'retrying the last message', data: { runId } satisfies CommandData<'retry'> };
  },
};
