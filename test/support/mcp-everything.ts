import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// MCP_EVERYTHING_DIR points at an install elsewhere (e.g. to try a release before adding it).
const packageDir =
  process.env.MCP_EVERYTHING_DIR ?? join(fileURLToPath(new URL('../..', import.meta.url)), 'node_modules/@modelcontextprotocol/server-everything');

/**
 * The reference server from the npm registry (`@modelcontextprotocol/server-everything`,
 * a devDependency) when it is installed: the entry script its `bin` names.
 */
export function everythingEntry(): string | undefined {
  const manifest = join(packageDir, 'package.json');
  if (!existsSync(manifest)) return undefined;
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin?: string | Record<string, string> };
  const entry = typeof bin === 'string' ? bin : bin ? Object.values(bin)[0] : undefined;
  return entry ? join(dirname(manifest), entry) : undefined;
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** Starts the reference server over streamable HTTP on a free loopback port; its `/mcp` URL. */
export async function startEverythingHttp(entry: string): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [entry, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr!.resume();
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
  };
}
