import type { SlashCommand } from './types.js';

export const helpCommand: SlashCommand = {
  name: 'help',
  aliases: ['?'],
  args: '',
  description: 'List slash commands and keys',
  async run(_args, { controller }) {
    const { slashCommands } = await import('./registry.js');
    const local = slashCommands.map((c) => `/${c.name}${c.args ? ` ${c.args}` : ''} — ${c.description}`);
    let server: string[] = [];
    if (controller.serves('commands.list')) {
      const known = new Set(slashCommands.flatMap((c) => [c.name, ...c.aliases]));
      const { commands } = await controller.call('commands.list');
      server = commands.filter((c) => !known.has(c.name)).map((c) => `/${c.name}${c.args ? ` ${c.args}` : ''} — ${c.description} (gateway)`);
    }
    controller.notice([
      ...local,
      ...server,
      'Keys: Enter send · Alt+Enter/Ctrl+J newline · Esc abort turn · Tab/Shift+Tab focus · z zoom, h hide (side pane) · Ctrl+L show all panes · Ctrl+O expand tool output · PgUp/PgDn scroll · Ctrl+C twice quit',
    ].join('\n'));
  },
};
