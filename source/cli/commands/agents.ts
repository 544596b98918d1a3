import { connectLocal } from '../../client/index.js';
import { statePaths } from '../../config/index.js';
import type { AgentInfo } from '../../protocol/index.js';
import type { CommandRun } from '../command.js';
import { printJson } from '../format.js';
import { positionals, stringFlag } from './flag-values.js';

const VALUE_FLAGS = ['name', 'workspace', 'model'];

function row(agent: AgentInfo): string {
  const name = agent.name ? ` (${agent.name})` : '';
  const tags = [
    agent.default ? 'default' : '',
    `${agent.bindings} binding${agent.bindings === 1 ? '' : 's'}`,
    `${agent.sessions} session${agent.sessions === 1 ? '' : 's'}`,
  ]
    .filter(Boolean)
    .join(', ');
  return `${`${agent.id}${name}`.padEnd(28)} ${(agent.model ?? '-').padEnd(28)} ${tags}\n  ${agent.workspace}\n`;
}

/** `claw agents list|add|remove`: the gateway's agents; a change applies at once, without a restart. */
export const run: CommandRun = async ({ argv, flags }) => {
  const [action = 'list', id, ...extra] = positionals(argv, VALUE_FLAGS).slice(1);
  if (!['list', 'add', 'remove'].includes(action) || (action !== 'list' && !id) || extra.length > 0) {
    const what = ['list', 'add', 'remove'].includes(action)
      ? id
        ? `too many words after "${action} ${id}"`
        : `"${action}" needs an agent id`
      : `unknown action "${action}"`;
    process.stderr.write(`claw agents: ${what}. \`claw help agents\` shows the usage.\n`);
    return 2;
  }
  const client = await connectLocal(statePaths(), { clientName: 'claw-agents' });
  try {
    if (action === 'list') {
      const { agents } = await client.request('agents.list', {});
      if (flags.json) printJson(agents);
      else for (const agent of agents) process.stdout.write(row(agent));
      return 0;
    }
    if (action === 'add') {
      const name = stringFlag(argv, 'name');
      const workspace = stringFlag(argv, 'workspace');
      const model = stringFlag(argv, 'model');
      const { agent } = await client.request('agents.add', {
        id: id!,
        ...(name ? { name } : {}),
        ...(workspace ? { workspace } : {}),
        ...(model ? { model } : {}),
        ...(argv.includes('--default') ? { default: true } : {}),
      });
      if (flags.json) printJson(agent);
      else
        process.stdout.write(
          `added agent ${agent.id}${agent.default ? ' (default)' : ''}; workspace ${agent.workspace}. It answers now; bind peers to it under "bindings" in claw.json.\n`,
        );
      return 0;
    }
    const removed = await client.request('agents.remove', { id: id! });
    if (flags.json) printJson(removed);
    else
      process.stdout.write(
        `removed agent ${removed.removed}${removed.bindingsRemoved > 0 ? ` and ${removed.bindingsRemoved} binding(s)` : ''}; its workspace ${removed.workspace} and transcripts stay on disk.\n`,
      );
    return 0;
  } finally {
    client.close();
  }
};
