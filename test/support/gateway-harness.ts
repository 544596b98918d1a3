import { silentLogger, type Logger } from '../../source/config/index.js';
import { ensureGatewayTokenSync, loadConfig, writeRawConfig, type ClawConfig, type StatePaths } from '../../source/config/index.js';
import { GatewayClient, type GatewayClientOptions } from '../../source/client/index.js';
import { GatewayServer, type GatewayModule } from '../../source/gateway/index.js';
import { createCore, EventBus, type Core, type CoreOptions } from '../../source/core/index.js';
import { makeTempState, type TempState } from './temp-state.js';

/** What a test may set of the core beside the config, paths, logger and bus the harness gives it. */
export type TestCoreOptions = Omit<CoreOptions, 'config' | 'paths' | 'log' | 'events'>;

/** A test's own method table, built on the gateway's bus before the gateway starts. */
export type TestModule = (context: {
  config: ClawConfig;
  paths: StatePaths;
  bus: EventBus;
  log: Logger;
  now: () => number;
}) => GatewayModule | Promise<GatewayModule>;

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
 * Builds the event bus and, with `core`, the daemon's real core on it (as the
 * daemon does), then the gateway that serves them. The core's environment
 * defaults to an empty one, so nothing from the machine leaks in.
 */
export async function buildTestRoot(
  config: ClawConfig,
  paths: StatePaths,
  token: string,
  options: { core?: TestCoreOptions | undefined; modules?: TestModule[] | undefined; log?: Logger | undefined },
): Promise<{ server: GatewayServer; core: Core | undefined }> {
  const log = options.log ?? silentLogger;
  const bus = new EventBus(config.gateway.resumeBufferEvents);
  const core = options.core
    ? await createCore({
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', OLLAMA_HOST: '127.0.0.1:9' },
        ...options.core,
        config,
        paths,
        log,
        events: bus,
      })
    : undefined;
  await core?.start();
  const modules = await Promise.all((options.modules ?? []).map((module) => module({ config, paths, bus, log, now: Date.now })));
  const server = new GatewayServer({ config, paths, port: 0, bind: '127.0.0.1', token, log, bus, modules, ...(core ? { core } : {}) });
  return { server, core };
}

/**
 * An in-process gateway on an ephemeral loopback port with a fresh state dir.
 * `config` is written to claw.json first. `core` runs the daemon's real
 * services; `modules` are extra ones of the test.
 */
export async function startTestGateway(
  options: { config?: Record<string, unknown>; core?: TestCoreOptions; modules?: TestModule[]; state?: TempState } = {},
): Promise<TestGateway> {
  const state = options.state ?? makeTempState();
  if (options.config) writeRawConfig(state.paths.config, options.config);
  const config = loadConfig(state.paths.config);
  const token = ensureGatewayTokenSync(state.paths, {});
  const { server, core } = await buildTestRoot(config, state.paths, token, options);
  const port = await server.start();
  // Tests start from a warm daemon: its watchers armed and indexes open, as a few hundred ms after a real start.
  await core?.warm();
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
