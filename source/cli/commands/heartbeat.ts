import { statePaths } from '../../config/index.js';
import { connectLocal } from '../../client/index.js';
import { heartbeatStateWord, type HeartbeatAgentStatus } from '../../protocol/index.js';
import type { CommandRun } from '../command.js';
import { formatDuration, printJson } from '../format.js';

const usage = 'Usage: claw heartbeat status|now|pause|resume [--agent ID] [--json]';

const when = (at: number | undefined): string => (at === undefined ? '-' : new Date(at).toISOString().replace('.000Z', 'Z'));

function describe(status: HeartbeatAgentStatus): string {
  return [
    `heartbeat (${status.agentId}): ${heartbeatStateWord(status)}`,
    `  every       ${status.enabled ? formatDuration(status.everyMs) : '-'}`,
    `  session     ${status.sessionKey}`,
    `  next run    ${when(status.nextRunAt)}`,
    `  last run    ${when(status.lastRunAt)}${status.lastOutcome ? ` (${status.lastOutcome}${status.lastReason ? `: ${status.lastReason}` : ''})` : ''}`,
    `  tokens      ${status.tokensToday} today${status.dailyTokenBudget !== undefined ? ` of ${status.dailyTokenBudget}` : ''}`,
  ].join('\n');
}

export const run: CommandRun = async (input) => {
  const words = input.argv.slice(input.argv.indexOf('heartbeat') + 1);
  const sub = words.find((word) => !word.startsWith('-') && words[words.indexOf(word) - 1] !== '--agent');
  const agentAt = words.indexOf('--agent');
  const agentId = agentAt === -1 ? undefined : words[agentAt + 1];
  if (agentAt !== -1 && !agentId) {
    process.stderr.write(`claw heartbeat: --agent needs an agent id.\n${usage}\n`);
    return 2;
  }
  if (!sub || !['status', 'now', 'pause', 'resume'].includes(sub)) {
    process.stderr.write(`${sub ? `claw heartbeat: unknown subcommand "${sub}".\n` : ''}${usage}\n`);
    return 2;
  }
  const client = await connectLocal(statePaths());
  try {
    if (sub === 'now') {
      const result = await client.request('heartbeat.now', agentId ? { agentId } : {});
      process.stdout.write(`heartbeat ${result.outcome}: ${result.reason ?? ''}\n`);
      return 0;
    }
    if (sub === 'pause' || sub === 'resume') {
      const status = await client.request('heartbeat.pause', { ...(agentId ? { agentId } : {}), paused: sub === 'pause' });
      process.stdout.write(`${describe(status)}\n`);
      return 0;
    }
    const { heartbeats, notices } = await client.request('schedule.list', {});
    const shown = agentId ? heartbeats.filter((h) => h.agentId === agentId) : heartbeats;
    if (shown.length === 0) {
      process.stderr.write(`claw heartbeat: no agent "${agentId}"; known agents: ${heartbeats.map((h) => h.agentId).join(', ')}.\n`);
      return 1;
    }
    if (input.flags.json) printJson(shown);
    else {
      process.stdout.write(`${shown.map(describe).join('\n\n')}\n`);
      for (const notice of notices.filter((n) => n.startsWith('Heartbeat'))) process.stdout.write(`! ${notice}\n`);
    }
    return 0;
  } finally {
    client.close();
  }
};
