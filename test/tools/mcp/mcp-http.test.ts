import { TEST_TOOL_COUNT } from '../../support/mcp-test-tools.js';
import { afterEach, describe, expect, it } from 'vitest';
import { configSchema } from '../../../source/config/index.js';
import { ToolRegistry, type ToolContext } from '../../../source/tools/index.js';
import { McpManager, type McpServerStatus } from '../../../source/tools/mcp/index.js';
import { startHttpMcpServer, waitFor, type HttpMcpServer } from '../../support/mcp-servers.js';

const cleanups: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function server(options: { port?: number; token?: string } = {}): Promise<HttpMcpServer> {
  const started = await startHttpMcpServer(options);
  cleanups.push(() => started.kill());
  return started;
}

function manage(servers: Record<string, unknown>) {
  const registry = new ToolRegistry();
  const manager = new McpManager(configSchema.parse({ mcpServers: servers }).mcpServers, { registry, backoff: { initialMs: 100, maxMs: 400 } });
  const controller = new AbortController();
  cleanups.push(async () => {
    controller.abort();
    await manager.close();
  });
  manager.start();
  const context: ToolContext = {
    agentId: 'main',
    sessionKey: 'agent:main:main',
    sessionType: 'main',
    workspaceDir: process.cwd(),
    signal: controller.signal,
    onUpdate: () => {},
    approvals: {
      request: async () => {
        throw new Error('trust is allow: no approval expected');
      },
      approvedForSession: () => false,
    },
  };
  const status = (name: string): McpServerStatus => manager.status().find((s) => s.name === name)!;
  return { registry, manager, context, status };
}

describe('MCP over streamable HTTP', { timeout: 90_000 }, () => {
  it('connects with the configured headers, lists, calls and follows list_changed', async () => {
    const remote = await server({ token: 'sesame' });
    const env = manage({ web: { url: remote.url, headers: { 'x-test-token': 'sesame' }, trust: 'allow' } });
    await waitFor(() => env.status('web').state === 'ready', 'web ready');
    expect(env.status('web')).toMatchObject({ transport: 'http', target: remote.url, toolCount: TEST_TOOL_COUNT });
    const echo = await env.registry.invoke('mcp__web__echo', { text: 'over http' }, env.context);
    expect(echo).toMatchObject({ isError: false });
    expect(echo.content).toContain('echo: over http');

    await env.registry.invoke('mcp__web__add_tool', { name: 'late' }, env.context);
    await waitFor(() => env.registry.get('mcp__web__late'), 'the added tool');
    expect((await env.registry.invoke('mcp__web__late', {}, env.context)).content).toContain('late ran');
  });

  it('reports a refused connection (wrong token) as an error state', async () => {
    const remote = await server({ token: 'sesame' });
    const env = manage({ web: { url: remote.url, headers: { 'x-test-token': 'wrong' }, trust: 'allow' } });
    await waitFor(() => env.status('web').lastError, 'web to fail');
    expect(env.status('web').toolCount).toBe(0);
    expect(env.status('web').lastError).toMatch(/401|bad token/);
  });

  it('survives the server dying mid-call: error result, then reconnects when it is back', async () => {
    const first = await server();
    const env = manage({ web: { url: first.url, trust: 'allow' } });
    await waitFor(() => env.status('web').state === 'ready', 'web ready');
    const before = JSON.parse(/\{.*\}/.exec((await env.registry.invoke('mcp__web__whoami', {}, env.context)).content)![0]).pid as number;

    const crashed = await env.registry.invoke('mcp__web__crash', {}, env.context);
    expect(crashed.isError).toBe(true);
    expect(crashed.content).toMatch(/MCP server "web" (could not be reached|went away) during the call.*reconnects it automatically/);
    await waitFor(() => env.status('web').state === 'error', 'web to notice');
    const down = await env.registry.invoke('mcp__web__echo', { text: 'x' }, env.context);
    expect(down.isError).toBe(true);
    expect(down.content).toMatch(/is not connected \((reconnecting after an error|still connecting)/);

    await server({ port: first.port });
    await waitFor(() => env.status('web').state === 'ready', 'web back');
    const after = JSON.parse(/\{.*\}/.exec((await env.registry.invoke('mcp__web__whoami', {}, env.context)).content)![0]).pid as number;
    expect(after).not.toBe(before);
  });
});
