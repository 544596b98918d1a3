import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { once } from 'node:events';
import { join } from 'node:path';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const tsxLoader = pathToFileURL(join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href;

/** Node arguments that run one of our TypeScript test servers as a child process. */
export function tsNodeArgs(script: string, args: string[] = []): string[] {
  return ['--import', tsxLoader, join(repoRoot, 'test/support', script), ...args];
}

/** An `mcpServers` entry that starts the SDK stdio test server. */
export function stdioServerEntry(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { command: process.execPath, args: tsNodeArgs('mcp-stdio-server.ts'), ...extra };
}

export interface HttpMcpServer {
  url: string;
  port: number;
  child: ChildProcess;
  /** SIGKILL and wait for exit. */
  kill(): Promise<void>;
}

/** Starts the streamable-HTTP test server as a child process and waits for its port. */
export async function startHttpMcpServer(options: { port?: number; token?: string } = {}): Promise<HttpMcpServer> {
  const args = ['--port', String(options.port ?? 0), ...(options.token ? ['--token', options.token] : [])];
  return startServerProcess('mcp-http-server.ts', args, '/mcp');
}

/** Starts the legacy HTTP+SSE test server; its `url` is the SSE endpoint. */
export function startSseMcpServer(): Promise<HttpMcpServer> {
  return startServerProcess('mcp-sse-server.ts', [], '/sse');
}

async function startServerProcess(script: string, args: string[], path: string): Promise<HttpMcpServer> {
  const child = spawn(process.execPath, tsNodeArgs(script, args), { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /listening (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.once('exit', (code) => reject(new Error(`MCP test server ${script} exited (${code}): ${output}`)));
  });
  return {
    url: `http://127.0.0.1:${port}${path}`,
    port,
    child,
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Polls `check` until it returns a truthy value; generous because CI machines are slow. */
export async function waitFor<T>(check: () => T | Promise<T>, what: string, timeoutMs = 30_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
