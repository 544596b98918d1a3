import { keyHelpLines } from '../key-help.js';
import type { SlashCommand } from './types.js';

export const helpCommand: SlashCommand = {
  name: 'help',
  aliases: ['?'],
  args: '[keys]',
  description: 'List slash commands and keys (/help keys: only the keys)',
  complete: (partial) => ['keys'].filter((o) => o.startsWith(partial)),
  async run(args, { controller }) {
    if (args.trim() === 'keys') return controller.notice(['Keys:', ...keyHelpLines().map((line) => `  ${line}`)].join('\n'));
    const { slashCommands } = await import('./registry.js');
    const local = new Set(slashCommands.flatMap((c) => [c.name, ...c.aliases]));
    const lines = [
      ...slashCommands.map((c) => `/${c.name}${c.args ? ` ${c.args}` : ''} — ${c.description}`),
      ...controller
        .commands()
        .filter((c) => !local.has(c.name))
        .map((c) => `/${c.name}${c.args ? ` ${c.args}` : ''} — ${c.description}`),
      'Keys:',
      ...keyHelpLines().map((line) => `  ${line}`),
    ];
    controller.notice(lines.join('\n'));
  },
};
