import { runOnGateway } from './server-command.js';
import type { SlashCommand } from './types.js';

export const compactCommand: SlashCommand = {
  name: 'compact',
  aliases: [],
  args: '[instructions]',
  description: 'Summarise older history now, optionally with focus instructions',
  run: (args, context) => runOnGateway(args.trim() ? `/compact ${args.trim()}` : '/compact', context),
};
