import { runOnGateway } from './server-command.js';
import type { SlashCommand } from './types.js';

export const contextCommand: SlashCommand = {
  name: 'context',
  aliases: ['ctx'],
  args: 'list|detail',
  description: 'What fills the context window (bootstrap files, skills, tools, history)',
  complete: (partial) => ['list', 'detail'].filter((o) => o.startsWith(partial)),
  run: (args, context) => runOnGateway(`/context ${args.trim() || 'list'}`, context),
};
