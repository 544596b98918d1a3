import type { SlashCommand } from './types.js';

export const helpCommand: SlashCommand = {
  name: 'help',
  aliases: ['?'],
  args: '',
  description: 'List the slash commands.',
  async run({ list }) {
    const lines = list().map((command) => `/${command.name}${command.args ? ` ${command.args}` : ''} — ${command.description}`);
    return { reply: lines.join('\n') };
  },
};
