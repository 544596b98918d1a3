import { afterEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../../support/gateway-harness.js';
import { stdioServerEntry, waitFor } from '../../support/mcp-servers.js';

let gateway: TestGateway | undefined;
afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
});

describe('gateway mcp module', { timeout: 90_000 }, () => {
  it("serves mcp.list and registers tools in the gateway's registry, removing them on close", async () => {
    gateway = await startTestGateway({
      config: { mcpServers: { local: stdioServerEntry({ trust: 'allow' }), off: stdioServerEntry({ enabled: false }) } },
      core: { mcp: { backoff: { initialMs: 100, maxMs: 400 } } },
    });
    const { registry } = gateway.core.tools;
    const client = await gateway.connect();
    const servers = await waitFor(async () => {
      const { servers: listed } = await client.request('mcp.list', {});
      return listed.find((s) => s.name === 'local')?.state === 'ready' ? listed : undefined;
    }, 'local ready over mcp.list');
    expect(servers.find((s) => s.name === 'local')).toMatchObject({ transport: 'stdio', trust: 'allow', toolCount: 8 });
    expect(servers.find((s) => s.name === 'off')).toMatchObject({ state: 'disabled', toolCount: 0 });
    expect(registry.list().map((tool) => tool.name)).toContain('mcp__local__echo');

    await gateway.stop();
    gateway = undefined;
    expect(registry.list().filter((tool) => tool.name.startsWith('mcp__'))).toEqual([]);
  });
});
