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
  if (!interactive) {
    const { started } = await startGatewayExplained(paths);
    if (started) process.stdout.write('started the local gateway\n');
    process.stdout.write(describeStatus(await gatewayStatus(paths), paths.root));
    return 0;
  }
  // Ink and React load only here, so other commands start fast. The frame
  // paints as soon as they have loaded; the gateway is found (or started) and
  // connected meanwhile, and what is typed first waits for the connection.
  prepareInteractiveEnv();
  const tui = import('../../tui/index.js');
  const connected = (async () => {
    const { gateway } = await startGatewayExplained(paths);
    const client = new GatewayClient({
      url: gateway.url,
      token: process.env.CLAW_GATEWAY_TOKEN || gateway.token,
      reconnect: true,
      clientName: clientName('tui'),
    });
    try {
      await client.connect();
    } catch (error) {
      client.close();
      throw error;
    }
    return client;
  })();
  // Until runTui takes it over, a failure must not be an unhandled rejection.
  connected.catch(() => undefined);
  const { runTui } = await tui;
  try {
    return await runTui({ client: connected });
  } finally {
    (await connected.catch(() => undefined))?.close();
  }
};
