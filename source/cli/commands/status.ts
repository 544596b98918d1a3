import { statePaths } from '../../config/index.js';
import { gatewayStatus, type GatewayStatus } from '../../client/index.js';
import type { ConfigStatus } from '../../protocol/index.js';
import type { CommandRun } from '../command.js';
import { formatDuration, printJson } from '../format.js';

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
    '',
  ].join('\n');
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
