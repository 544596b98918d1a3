import type { SlashCommand } from './types.js';

export const helpCommand: SlashCommand = {
  name: 'help',
  aliases: ['?'],
  args: '',
  description: 'List slash commands and keys',
  async run(_args, { controller }) {
    const { slashCommands } = await import('./registry.js');
    const local = new Set(slashCommands.flatMap((c) => [c.name, ...c.aliases]));
    const lines = [
      ...slashCommands.map((c) => `/${c.name}${c.args ? ` ${c.args}` : ''} — ${c.description}`),
      ...controller.commands().filter((c) => !local.has(c.name)).map((c) => `/${c.name}${c.args ? ` ${c.args}` : ''} — ${c.description}`),
      'Keys: Enter send · Alt+Enter/Ctrl+J newline · Esc abort turn · Tab/Shift+Tab focus · z zoom, h hide (side pane) · Ctrl+L show all panes · Ctrl+O expand tool output · PgUp/PgDn scroll · Ctrl+C twice quit',
    ];
    controller.notice(lines.join('\n'));
  },
};
