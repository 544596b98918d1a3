import type { GatewayClient } from '../../client/index.js';
import type { CommandRun } from '../command.js';
import { clientName } from '../client-name.js';
import { importTui, prepareInteractiveEnv } from '../tui-env.js';

/** How long the first frame waits for the hello of a connection already under way. */
const HELLO_WAIT_MS = 30;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * `claw` with no command: find the local gateway (starting it when needed) and
 * open the TUI on it. Without a terminal (piped output) it prints the status.
 */
export const run: CommandRun = async () => {
  const interactive = Boolean(process.stdout.isTTY && process.stdin.isTTY);
  // Before config, client and zod load (imported below, not statically), so
  // the heap settings apply while they do.
  if (interactive) prepareInteractiveEnv();
  const [{ statePaths }, { findLocalGateway, GatewayClient, gatewayStatus }, { startGatewayExplained }] = await Promise.all([
    import('../../config/index.js'),
    import('../../client/index.js'),
    import('../start-gateway.js'),
  ]);
  const paths = statePaths();
  if (!interactive) {
    const { describeStatus } = await import('./status.js');
    const { started } = await startGatewayExplained(paths);
    if (started) process.stdout.write('started the local gateway\n');
    process.stdout.write(describeStatus(await gatewayStatus(paths), paths.root));
    return 0;
  }
  const open = async (gateway: { url: string; token: string }): Promise<GatewayClient> => {
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
  };
  const connected = (async () => {
    // A gateway that is running takes the WebSocket at once: asking /readyz first
    // would cost a round trip, each of which waits for a module to finish loading.
    const running = findLocalGateway(paths);
    if (running) {
      const client = await open(running).catch(() => undefined);
      if (client) return client;
    }
    return open((await startGatewayExplained(paths)).gateway);
  })();
  // Until runTui takes it over, a failure must not be an unhandled rejection.
  let ready: GatewayClient | undefined;
  connected.then(
    (client) => {
      ready = client;
    },
    () => undefined,
  );
  // Ink and React load only here, so other commands start fast. Loading them
  // holds the event loop, so the connection takes a turn of it before and
  // after: the socket's connect and the gateway's upgrade answer then go on
  // while they load, and the hello is usually on its way by the time they have.
  await nextTurn();
  const tui = await importTui();
  await nextTurn();
  // A local gateway answers within a few milliseconds: the first frame waits
  // that long for the hello (typing meanwhile stays in the terminal's buffer),
  // so it shows the session instead of "connecting" for one frame.
  await Promise.race([connected.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, HELLO_WAIT_MS))]);
  const { runTui } = tui;
  try {
    // With the hello in, the first frame already shows it (and the snapshot).
    return await runTui({ client: ready ?? connected });
  } finally {
    (await connected.catch(() => undefined))?.close();
  }
};
