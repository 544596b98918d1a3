import { clientName } from '../client-name.js';
import { statePaths } from '../../config/index.js';
import { connectLocal } from '../../client/index.js';
import type { CommandRun } from '../command.js';
import { printJson } from '../format.js';
import { positionals, stringFlag } from './flag-values.js';

const DEFAULT_SESSION = 'agent:main:main';

/**
 * `claw context [list|detail] [--session KEY] [--json]`: what fills a
 * session's context window, through the same /context command the TUI runs.
 */
export const run: CommandRun = async ({ argv, flags }) => {
  const sessionKey = stringFlag(argv, 'session') ?? DEFAULT_SESSION;
  const view = positionals(argv, ['session']).slice(1)[0] ?? 'list';
  const client = await connectLocal(statePaths(), { clientName: clientName('claw context') });
  try {
    const result = await client.request('commands.run', { sessionKey, text: `/context ${flags.json ? 'json' : view}` });
    if (flags.json) printJson(result.data);
    else process.stdout.write(`${result.reply}\n`);
    return 0;
  } finally {
    client.close();
  }
};
