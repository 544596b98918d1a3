import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configSchema } from '../../source/config/index.js';
import { ToolRegistry } from '../../source/tools/index.js';
import { McpManager } from '../../source/tools/mcp/index.js';

const root = join(import.meta.dirname, '..', '..');
const POSTGRES_SERVER = join(root, 'node_modules/@modelcontextprotocol/server-postgres/dist/index.js');

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups.length = 0;
});

/** Processes whose command line contains `marker`. */
function running(marker: string): number {
  try {
    return execFileSync('pgrep', ['-f', marker], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
}

describe('a published MCP server from npm (@modelcontextprotocol/server-postgres 0.6.2)', { timeout: 60_000 }, () => {
  it('is ready although it lacks resources/templates/list and its database is down; the warnings name each method; closing ends its process', async () => {
    // A database name no other test uses, so the process can be found by it; port 9 refuses connections.
    const marker = `claw-${randomUUID()}`;
    const config = configSchema.parse({
      mcpServers: { pg: { command: process.execPath, args: [POSTGRES_SERVER, `postgresql://claw@127.0.0.1:9/${marker}`], trust: 'allow' } },
    });
    const registry = new ToolRegistry();
    const manager = new McpManager(config.mcpServers, { registry });
    cleanups.push(() => manager.close());
    manager.start();
    await expect.poll(() => manager.status()[0]?.state, { timeout: 30_000 }).toBe('ready');
    expect(registry.get('mcp__pg__query')).toBeDefined();
    const warnings = manager.status()[0]?.warnings ?? [];
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^resources\/list failed \(.*ECONNREFUSED/),
        expect.stringMatching(/^resources\/templates\/list failed \(MCP error -32601/),
      ]),
    );
    expect(running(marker)).toBe(1);
    await manager.close();
    expect(running(marker)).toBe(0);
  });
});
