import type { CommandData } from '../../protocol/index.js';
import type { SlashCommand } from './types.js';

export const abortCommand: SlashCommand = {
  name: 'abort',
  aliases: ['stop'],
  args: '',
  description: 'Stop the running turn (queued messages stay queued).',
  async run({ sessionKey, host }) {
    const aborted = await host.abort(sessionKey);
    return { reply: aborted ? 'turn aborted' : 'nothing is running', data: { aborted } satisfies CommandData<'abort'> };
  },
};
