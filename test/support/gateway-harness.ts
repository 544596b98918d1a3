import { loadConfig, writeRawConfig } from '../../source/config/index.js';
import { GatewayClient, type GatewayClientOptions } from '../../source/client/index.js';
import { GatewayServer, type ModuleFactory } from '../../source/gateway/index.js';
import { ensureGatewayTokenSync } from '../../source/config/index.js';
import { silentLogger } from '../../source/core/index.js';
import { makeTempState, type TempState } from './temp-state.js';

export interface TestGateway {
  state: TempState;
  server: GatewayServer;
  url: string;
  token: string;
  /** A connected client (closed by stop()). */
  connect(options?: Partial<GatewayClientOptions>): Promise<GatewayClient>;
  stop(): Promise<void>;
}

/**
 * An in-process gateway on an ephemeral loopback port with a fresh state dir.
 * `config` is written to claw.json first; `modules` are the subsystems to run.
 */
export async function startTestGateway(options: { config?: Record<string, unknown>; modules?: ModuleFactory[]; state?: TempState } = {}): Promise<TestGateway> {
  const state = options.state ?? makeTempState();
  if (options.config) writeRawConfig(state.paths.config, options.config);
  const config = loadConfig(state.paths.config);
  const token = ensureGatewayTokenSync(state.paths, {});
  const server = new GatewayServer({
    config,
    paths: state.paths,
    port: 0,
    bind: '127.0.0.1',
    token,
    log: silentLogger,
    modules: options.modules ?? [],
  });
  const port = await server.start();
  const url = `ws://127.0.0.1:${port}`;
  const clients: GatewayClient[] = [];
  return {
    state,
    server,
    url,
    token,
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
