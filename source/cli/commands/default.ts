import { statePaths } from '../../config/index.js';
import { gatewayStatus, GatewayClient, startGatewayDetached } from '../../gateway/index.js';
import type { CommandRun } from '../command.js';
import { describeStatus } from './status.js';

/**
 * `claw` with no command: find the local gateway (starting it when needed) and
 * open the TUI on it. Without a terminal (piped output) it prints the status.
 */
export const run: CommandRun = async () => {
  const paths = statePaths();
  const { started, gateway } = await startGatewayDetached(paths);
  if (!process.stdout.isTTY || !process.stdin.isTTY) {
    if (started) process.stdout.write('started the local gateway\n');
    process.stdout.write(describeStatus(await gatewayStatus(paths), paths.root));
    return 0;
  }
  const client = new GatewayClient({ url: gateway.url, token: process.env.CLAW_GATEWAY_TOKEN || gateway.token, reconnect: true, clientName: 'claw-tui' });
  // Loaded only here so every other command starts without React and Ink.
  const [{ runTui }] = await Promise.all([import('../../tui/index.js'), client.connect()]);
  try {
    return await runTui({ client });
  } finally {
    client.close();
  }
};
