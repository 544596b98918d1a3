import { TEST_TOOL_COUNT } from '../../support/mcp-test-tools.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpElicitationRecord, PayloadOf } from '../../../source/protocol/index.js';
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
    expect(servers.find((s) => s.name === 'local')).toMatchObject({ transport: 'stdio', trust: 'allow', toolCount: TEST_TOOL_COUNT });
    expect(servers.find((s) => s.name === 'off')).toMatchObject({ state: 'disabled', toolCount: 0 });
    expect(registry.list().map((tool) => tool.name)).toContain('mcp__local__echo');

    await gateway.stop();
    gateway = undefined;
    expect(registry.list().filter((tool) => tool.name.startsWith('mcp__'))).toEqual([]);
  });

  it('pushes mcp.changed, serves prompts, resources and logs, and carries a server question to a client and its answer back', async () => {
    gateway = await startTestGateway({
      config: { mcpServers: { local: stdioServerEntry({ trust: 'allow' }) } },
      core: { mcp: { backoff: { initialMs: 100, maxMs: 400 } } },
    });
    const client = await gateway.connect();
    const changes: Array<PayloadOf<'mcp.changed'>> = [];
    client.on('mcp.changed', (payload) => changes.push(payload));
    await waitFor(async () => (await client.request('mcp.list', {})).servers[0]?.state === 'ready', 'local ready');
    await waitFor(() => changes.some((change) => change.part === 'state' && change.servers[0]?.state === 'ready'), 'a ready mcp.changed');
    expect(changes.map((change) => change.part)).toEqual(expect.arrayContaining(['tools', 'prompts', 'resources', 'state']));

    const { prompts } = await client.request('mcp.prompts.list', {});
    expect(prompts.map((prompt) => prompt.command)).toEqual(['mcp__local__greet']);
    const prompt = await client.request('mcp.prompts.get', { server: 'local', prompt: 'greet', arguments: { name: 'Ada' } });
    expect(prompt.messages).toEqual([{ role: 'user', text: 'Greet Ada in a plain way.' }]);
    expect(await client.request('mcp.prompts.complete', { server: 'local', prompt: 'greet', argument: 'name', value: 'G' })).toEqual({ values: ['Grace'] });
    const resources = await client.request('mcp.resources.list', {});
    expect(resources.resources.map((r) => `${r.server}:${r.uri}`)).toEqual(['local:test://readme']);
    expect(await client.request('mcp.resources.read', { server: 'local', uri: 'test://readme' })).toEqual({ text: 'readme of stdio', mimeType: 'text/plain' });
    await expect(client.request('mcp.resources.read', { server: 'elsewhere', uri: 'x://y' })).rejects.toThrow(/No MCP server named "elsewhere"/);
    const logs = await client.request('mcp.logs', { server: 'local' });
    expect(logs.lines[0]).toMatchObject({ marker: true });

    const asked = new Promise<McpElicitationRecord>((resolve) => client.on('mcp.elicitation.requested', ({ elicitation }) => resolve(elicitation)));
    const call = gateway.core.tools.registry.invoke(
      'mcp__local__ask',
      {},
      {
        agentId: 'main',
        sessionKey: 'agent:main:main',
        sessionType: 'main',
        workspaceDir: gateway.state.dir,
        signal: new AbortController().signal,
        onUpdate: () => {},
        approvals: {
          request: async () => {
            throw new Error('trust is allow');
          },
          approvedForSession: () => false,
        },
      },
    );
    const question = await asked;
    expect((await client.request('mcp.elicitation.list', {})).elicitations.map((e) => e.id)).toEqual([question.id]);
    await expect(client.request('mcp.elicitation.respond', { id: question.id, action: 'accept', content: { age: 3 } })).rejects.toThrow(
      /does not fit the form/,
    );
    const answered = await client.request('mcp.elicitation.respond', { id: question.id, action: 'accept', content: { name: 'Grace' } });
    expect(answered.elicitation.status).toBe('accepted');
    expect((await call).content).toContain('{"action":"accept","content":{"name":"Grace"}}');
  });
});
