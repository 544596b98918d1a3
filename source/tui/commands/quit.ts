import type { SlashCommand } from './types.js';

export const quitCommand: SlashCommand = {
  quiet: true,
  name: 'quit',
  aliases: ['exit', 'q'],
  args: '',
  description: 'Leave the TUI (the gateway keeps running)',
  run: (_args, { exit }) => exit(),
};
