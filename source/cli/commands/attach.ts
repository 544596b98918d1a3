import { parseArgs } from 'node:util';
import { attachOverSsh, GatewayClient, type SshTunnel } from '../../client/index.js';
import type { CommandRun } from '../command.js';
import { clientName } from '../client-name.js';
import { importTui, prepareInteractiveEnv } from '../tui-env.js';

const usage = `Usage:
  claw attach user@host[:sshport] [--remote-port N] [--agent ID] [--start] [--ssh-config FILE] [--remote-claw CMD]
  claw attach ws://host:port [--token TOKEN] [--agent ID]      (token also from CLAW_GATEWAY_TOKEN)`;

/**
 * Attaches the TUI to a remote gateway: through the user's own ssh (config,
 * agents, jump hosts apply) with the token read over ssh's channel, or to a
 * WebSocket URL the user tunnels themselves.
 */
export const run: CommandRun = async ({ argv }) => {
  const { values, positionals } = parseArgs({
    args: argv.slice(argv.indexOf('attach') + 1),
    allowPositionals: true,
    options: {
      'remote-port': { type: 'string' },
      agent: { type: 'string' },
      start: { type: 'boolean', default: false },
      'ssh-config': { type: 'string' },
      'remote-claw': { type: 'string' },
      token: { type: 'string' },
    },
  });
  const target = positionals[0];
  if (!target || positionals.length > 1) {
    process.stderr.write(`claw attach: ${target ? 'one destination only' : 'missing destination'}.\n${usage}\n`);
    return 2;
  }
  let url: string;
  let token: string;
  let tunnel: SshTunnel | undefined;
  let via = target;
  if (/^wss?:\/\//.test(target)) {
    token = values.token ?? process.env.CLAW_GATEWAY_TOKEN ?? '';
    if (!token) {
      process.stderr.write('claw attach: a ws:// URL needs --token or CLAW_GATEWAY_TOKEN (get it with `claw gateway token` on the gateway host).\n');
      return 2;
    }
    if (new URL(target).search) {
      process.stderr.write('claw attach: tokens never go in URLs; pass --token instead and drop the query string.\n');
      return 2;
    }
    url = target;
    via = new URL(target).host;
  } else {
    const remotePort = values['remote-port'] === undefined ? undefined : Number(values['remote-port']);
    if (remotePort !== undefined && (!Number.isInteger(remotePort) || remotePort < 1 || remotePort > 65535)) {
      process.stderr.write('claw attach: --remote-port must be a port number (1–65535).\n');
      return 2;
    }
    process.stderr.write(`connecting to ${target} over ssh…\n`);
    const attachment = await attachOverSsh(target, {
      ...(remotePort !== undefined ? { remotePort } : {}),
      ...(values['ssh-config'] ? { extraArgs: ['-F', values['ssh-config']] } : {}),
      ...(values['remote-claw'] ? { remoteClaw: values['remote-claw'] } : {}),
      start: values.start ?? false,
    });
    ({ url, tunnel } = attachment);
    token = attachment.info.token;
  }
  const client = new GatewayClient({ url, token, reconnect: true, clientName: clientName('tui') });
  tunnel?.onState((state) => {
    if (state === 'open') client.reconnectNow();
  });
  try {
    await client.connect();
    prepareInteractiveEnv();
    const { runTui } = await importTui();
    return await runTui({ client, via, ...(values.agent ? { agentId: values.agent } : {}) });
  } finally {
    client.close();
    tunnel?.close();
  }
};
