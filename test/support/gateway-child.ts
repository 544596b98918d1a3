import { spawn, type ChildProcess } from 'node:child_process';
import { GatewayClient, readGatewayInfoSync } from '../../source/client/index.js';
import { readGatewayTokenSync } from '../../source/config/index.js';
import { CLI_ENTRY } from './cli-process.js';
import type { TempState } from './temp-state.js';

export { CLI_ENTRY };

export interface GatewayChild {
  child: ChildProcess;
  url: string;
  token: string;
  exited: Promise<number | null>;
  connect(): Promise<GatewayClient>;
  /** SIGKILL, resolved once the process is reaped. */
  kill9(): Promise<void>;
  /** SIGTERM (drain), resolved once the process exits. */
  stop(): Promise<void>;
}

/**
 * `node dist/cli/claw.cjs gateway run --port 0` (the package's bin) on a temp state dir (needs
 * `npm run build`). Resolves once gateway.json names this child and it
 * answers /readyz.
 */
export async function startGatewayChild(state: TempState, env: NodeJS.ProcessEnv = {}, timeoutMs = 30_000): Promise<GatewayChild> {
  const child = spawn(process.execPath, [CLI_ENTRY, 'gateway', 'run', '--port', '0'], { env: { ...state.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (gone) throw new Error(`gateway child exited before it was ready: ${stderr}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`gateway child not ready within ${timeoutMs} ms: ${stderr}`);
    }
    const info = readGatewayInfoSync(state.paths);
    if (info && info.pid === child.pid) {
      const ready = await fetch(`http://127.0.0.1:${info.port}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) {
        const url = `ws://127.0.0.1:${info.port}`;
        const token = readGatewayTokenSync(state.paths, {})!;
        const clients: GatewayClient[] = [];
        return {
          child,
          url,
          token,
          exited,
          async connect() {
            const client = new GatewayClient({ url, token, clientName: 'test', requestTimeoutMs: 20_000 });
            clients.push(client);
            await client.connect();
            return client;
          },
          async kill9() {
            child.kill('SIGKILL');
            await exited;
            for (const client of clients) client.close();
          },
          async stop() {
            child.kill('SIGTERM');
            await exited;
            for (const client of clients) client.close();
          },
        };
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
