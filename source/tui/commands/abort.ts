import type { SlashCommand } from './types.js';

export const abortCommand: SlashCommand = {
  name: 'abort',
  aliases: ['stop'],
  args: '',
  description: 'Abort the running turn (Esc does the same)',
  run: (_args, { controller }) => controller.abort(),
};
