import { statePaths } from '../../config/index.js';
import { gatewayStatus, GatewayClient } from '../../client/index.js';
import { startGatewayExplained } from '../start-gateway.js';
import type { CommandRun } from '../command.js';
import { clientName } from '../client-name.js';
import { describeStatus } from './status.js';
import { prepareInteractiveEnv } from '../tui-env.js';

/**
 * `claw` with no command: find the local gateway (starting it when needed) and
 * open the TUI on it. Without a terminal (piped output) it prints the status.
 */
export const run: CommandRun = async () => {
  const paths = statePaths();
  const interactive = Boolean(process.stdout.isTTY && process.stdin.isTTY);
  // Ink and React load only here, so other commands start fast; loading them
  // while the gateway is found or started keeps the first frame early.
  if (interactive) prepareInteractiveEnv();
  const tui = interactive ? import('../../tui/index.js') : undefined;
  const { started, gateway } = await startGatewayExplained(paths);
  if (!tui) {
    if (started) process.stdout.write('started the local gateway\n');
    process.stdout.write(describeStatus(await gatewayStatus(paths), paths.root));
    return 0;
  }
  const client = new GatewayClient({
    url: gateway.url,
    token: process.env.CLAW_GATEWAY_TOKEN || gateway.token,
    reconnect: true,
    clientName: clientName('tui'),
  });
  const [{ runTui }] = await Promise.all([tui, client.connect()]);
  try {
    return await runTui({ client });
  } finally {
    client.close();
  }
};
