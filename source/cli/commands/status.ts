import { statePaths } from '../../config/index.js';
import { gatewayStatus, type GatewayStatus } from '../../client/index.js';
import type { ConfigStatus, ScheduleOverview, SpendSummary } from '../../protocol/index.js';
import { formatAmount } from '../../providers/index.js';
import type { CommandRun } from '../command.js';
import { cooldownLines, formatDuration, printJson } from '../format.js';

export function describeStatus(status: GatewayStatus, stateDir: string): string {
  if (!status.running) return `gateway: not running (state dir ${stateDir})\nStart it with \`claw gateway start\`, or run \`claw\`.\n`;
  if (status.source === 'pidfile') {
    const { info } = status;
    return [
      `gateway: running (pid ${info.pid}) but not answering: ${status.error}`,
      `  address  ${info.bind}:${info.port}`,
      `  version  ${info.version}`,
      `  started  ${new Date(info.startedAt).toISOString()}`,
      '',
    ].join('\n');
  }
  const s = status.status;
  const clients = s.clients.map((c) => `${c.clientName ?? c.clientId} (${c.address})`).join(', ') || 'none';
  return [
    `gateway: running`,
    `  address  ws://${s.bind}:${s.port}`,
    `  pid      ${s.pid}`,
    `  version  ${s.version}`,
    `  uptime   ${formatDuration(s.uptimeMs)}`,
    `  clients  ${s.clients.length}: ${clients}`,
    `  state    ${s.stateDir}`,
    `  service  ${s.supervisor === 'none' ? 'not supervised (see `claw gateway install`)' : `supervised by ${s.supervisor}`}`,
    ...configLines(s.config),
    ...scheduleLines(s.schedule),
    ...spendLines(s.spend),
    ...cooldownLines(s.cooldowns ?? [], Date.now(), '  cooling  '),
    ...(s.recovery
      ? [
          `  recovery at start (${at(s.recovery.at)} UTC): ${s.recovery.failed.length} message(s) failed by the crash-loop guard (the gateway died 3 times answering each; the senders were told):`,
          ...s.recovery.failed.map((m) => `           ${m.sessionKey} ${m.messageId}`),
        ]
      : []),
    '',
  ].join('\n');
}

function at(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 16);
}

/** The next runs in one line each, then every notice the operator has not seen in the TUI. */
function scheduleLines(schedule: ScheduleOverview | undefined): string[] {
  if (!schedule) return [];
  const enabled = schedule.jobs.filter((job) => job.enabled);
  const next = enabled
    .flatMap((job) => (job.state.nextRunAt !== undefined ? [{ name: job.name, at: job.state.nextRunAt }] : []))
    .sort((a, b) => a.at - b.at)[0];
  const lines = [`  cron     ${schedule.totalJobs ?? schedule.jobs.length} job(s)${next ? `, next "${next.name}" at ${at(next.at)} UTC` : ''}`];
  for (const beat of schedule.heartbeats) {
    const state = !beat.enabled
      ? 'off'
      : beat.paused
        ? 'paused (claw heartbeat resume)'
        : `every ${formatDuration(beat.everyMs)}${beat.nextRunAt !== undefined ? `, next at ${at(beat.nextRunAt)} UTC` : ''}`;
    const last = beat.lastOutcome ? `; last ${beat.lastOutcome}${beat.lastReason ? ` (${beat.lastReason})` : ''}` : '';
    lines.push(`  heartbeat ${beat.agentId}: ${state}${last}`);
  }
  for (const notice of schedule.notices) lines.push(`  notice   ${notice}`);
  return lines;
}

/** Today's spend per agent and the cap nearest its limit (`claw budget` has them all). */
function spendLines(spend: SpendSummary | undefined): string[] {
  if (!spend) return ['  spend    no model call yet'];
  const agents = spend.agents.map((agent) => `${agent.agentId} ${formatAmount('usd', agent.usd)} (${formatAmount('tokens', agent.tokens)})`).join(', ');
  const lines = [`  spend    today ${formatAmount('usd', spend.usd)}, ${formatAmount('tokens', spend.tokens)}${agents ? `: ${agents}` : ''}`];
  const near = spend.nearest;
  if (near)
    lines.push(
      `           nearest cap ${near.key}: ${formatAmount(near.unit, near.used)} of ${formatAmount(near.unit, near.cap)} (${Math.round((near.used / near.cap) * 100)}%)`,
    );
  return lines;
}

function configLines(config: ConfigStatus | undefined): string[] {
  if (!config || config.state === 'ok') return [`  config   live (changes to claw.json apply without a restart)`];
  if (config.state === 'restart-needed') return [`  config   ${config.restartNeeded.join(', ')} changed: run \`claw gateway restart\` to apply`];
  return [`  config   claw.json is INVALID; still running the last good config:`, ...(config.error ?? '').split('\n').map((line) => `           ${line}`)];
}

export const run: CommandRun = async ({ flags }) => {
  const paths = statePaths();
  const status = await gatewayStatus(paths);
  if (flags.json) printJson(status);
  else process.stdout.write(describeStatus(status, paths.root));
  return status.running ? 0 : 3;
};
