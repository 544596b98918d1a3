import { ensureGatewayTokenSync, loadConfig, writeRawConfig } from '../../source/config/index.js';
import { GatewayClient, type GatewayClientOptions } from '../../source/client/index.js';
import { GatewayServer, coreModule, type CoreModuleOptions, type ModuleFactory } from '../../source/gateway/index.js';
import { silentLogger, type Core } from '../../source/core/index.js';
import { makeTempState, type TempState } from './temp-state.js';

export interface TestGateway {
  state: TempState;
  server: GatewayServer;
  url: string;
  token: string;
  /** The daemon's services, when the gateway was started with `core`. */
  readonly core: Core;
  /** A connected client (closed by stop()). */
  connect(options?: Partial<GatewayClientOptions>): Promise<GatewayClient>;
  stop(): Promise<void>;
}

/**
 * An in-process gateway on an ephemeral loopback port with a fresh state dir.
 * `config` is written to claw.json first. `core` runs the daemon's real
 * services (the environment it reads keys from defaults to an empty one, so
 * nothing from the machine leaks in); `modules` are extra ones of the test.
 */
export async function startTestGateway(
  options: { config?: Record<string, unknown>; core?: CoreModuleOptions; modules?: ModuleFactory[]; state?: TempState } = {},
): Promise<TestGateway> {
  const state = options.state ?? makeTempState();
  if (options.config) writeRawConfig(state.paths.config, options.config);
  const config = loadConfig(state.paths.config);
  const token = ensureGatewayTokenSync(state.paths, {});
  let core: Core | undefined;
  const server = new GatewayServer({
    config,
    paths: state.paths,
    port: 0,
    bind: '127.0.0.1',
    token,
    log: silentLogger,
    modules: [
      ...(options.core
        ? [
            coreModule(
              { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', OLLAMA_HOST: '127.0.0.1:9' }, ...options.core },
              (started) => {
                core = started;
              },
            ),
          ]
        : []),
      ...(options.modules ?? []),
    ],
  });
  const port = await server.start();
  // Tests start from a warm daemon: its watchers armed and indexes open, as a few hundred ms after a real start.
  await (core as Core | undefined)?.warm();
  const url = `ws://127.0.0.1:${port}`;
  const clients: GatewayClient[] = [];
  return {
    state,
    server,
    url,
    token,
    get core(): Core {
      if (!core) throw new Error('this test gateway was started without `core`');
      return core;
    },
    async connect(clientOptions = {}) {
      const client = new GatewayClient({ url, token, clientName: 'test', ...clientOptions });
      clients.push(client);
      await client.connect();
      return client;
    },
    async stop() {
      for (const client of clients) client.close();
      await server.stop('test finished');
      if (!options.state) state.cleanup();
    },
  };
}
