import { clientName } from '../client-name.js';
import { statePaths } from '../../config/index.js';
import { connectLocal } from '../../client/index.js';
import { principalKind, type SessionSummary } from '../../protocol/index.js';
import type { CommandRun } from '../command.js';
import { formatDuration, printJson } from '../format.js';
import { stringFlag } from './flag-values.js';

function row(session: SessionSummary, now: number): string {
  const state = session.running ? 'running' : session.queued > 0 ? `${session.queued} queued` : 'idle';
  const tokens = session.tokens.input + session.tokens.output;
  return [
    session.key.padEnd(44),
    `${formatDuration(Math.max(0, now - session.updatedAt))} ago`.padEnd(12),
    state.padEnd(10),
    String(tokens).padStart(9),
    `  ${session.model ?? '-'}`,
    // Who asked decides the tools a turn gets: said for every session the owner did not ask in last.
    ...(session.principal && session.principal !== 'owner' ? [` · asked by ${session.principal}, tools of a ${principalKind(session.principal)}`] : []),
  ].join(' ');
}

/** `claw sessions [--agent ID] [--json]`: the gateway's sessions, newest first. */
export const run: CommandRun = async ({ argv, flags }) => {
  const agentId = stringFlag(argv, 'agent');
  const client = await connectLocal(statePaths(), { clientName: clientName('claw sessions') });
  try {
    const { sessions } = await client.request('sessions.list', agentId ? { agentId } : {});
    if (flags.json) {
      printJson(sessions);
      return 0;
    }
    if (sessions.length === 0) {
      process.stdout.write(
        `no sessions${agentId ? ` for agent ${agentId}` : ''} yet. Start one with \`claw message send --session agent:main:main "hello"\` or \`claw\`.\n`,
      );
      return 0;
    }
    const now = Date.now();
    process.stdout.write(`${'KEY'.padEnd(44)} ${'UPDATED'.padEnd(12)} ${'STATE'.padEnd(10)} ${'TOKENS'.padStart(9)}  MODEL\n`);
    for (const session of sessions) process.stdout.write(`${row(session, now)}\n`);
    return 0;
  } finally {
    client.close();
  }
};
