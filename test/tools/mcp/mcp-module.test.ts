import { TEST_TOOL_COUNT } from '../../support/mcp-test-tools.js';
import { afterEach, describe, expect, it } from 'vitest';
import { mcpModule } from '../../../source/gateway/index.js';
import { ToolRegistry } from '../../../source/tools/index.js';
import { startTestGateway, type TestGateway } from '../../support/gateway-harness.js';
import { stdioServerEntry, waitFor } from '../../support/mcp-servers.js';

let gateway: TestGateway | undefined;
afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
});

describe('gateway mcp module', { timeout: 90_000 }, () => {
  it('serves mcp.list and registers tools in the registry it is given, removing them on close', async () => {
    const registry = new ToolRegistry();
    gateway = await startTestGateway({
      config: { mcpServers: { local: stdioServerEntry({ trust: 'allow' }), off: stdioServerEntry({ enabled: false }) } },
      modules: [mcpModule({ registry: () => registry, backoff: { initialMs: 100, maxMs: 400 } })],
    });
    const client = await gateway.connect();
    const servers = await waitFor(async () => {
      const { servers: listed } = await client.request('mcp.list', {});
      return listed.find((s) => s.name === 'local')?.state === 'ready' ? listed : undefined;
    }, 'local ready over mcp.list');
    expect(servers.find((s) => s.name === 'local')).toMatchObject({ transport: 'stdio', trust: 'allow', toolCount: TEST_TOOL_COUNT });
    expect(servers.find((s) => s.name === 'off')).toMatchObject({ state: 'disabled', toolCount: 0 });
    expect(registry.list().map((tool) => tool.name)).toContain('mcp__local__echo');

    await gateway.stop();
    gateway = undefined;
    expect(registry.list()).toEqual([]);
  });
});
