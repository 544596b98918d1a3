import { afterEach, describe, expect, it } from 'vitest';
import type { PayloadOf } from '../../../source/protocol/index.js';
import { startFakeOpenAI } from '../../support/fake-openai-server.js';
import type { FakeLlmServer } from '../../support/fake-llm-common.js';
import { startTestGateway, type TestGateway } from '../../support/gateway-harness.js';
import { stdioServerEntry, waitFor } from '../../support/mcp-servers.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function gatewayWith(llm: FakeLlmServer): Promise<TestGateway> {
  const gateway = await startTestGateway({
    config: {
      models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: { contextWindow: 32_000 } } } } },
      agents: { defaults: { model: 'fake/m' } },
      mcpServers: {
        lender: stdioServerEntry({ trust: 'allow', sampling: true }),
        plain: stdioServerEntry({ trust: 'allow' }),
      },
    },
    core: {},
  });
  cleanups.push(() => gateway.stop());
  await waitFor(() => gateway.core.mcp.status().every((server) => server.state === 'ready'), 'both servers ready');
  return gateway;
}

const context = (gateway: TestGateway) => ({
  agentId: 'main',
  sessionKey: 'agent:main:main',
  sessionType: 'main',
  workspaceDir: gateway.state.dir,
  signal: new AbortController().signal,
  onUpdate: () => undefined,
  approvals: gateway.core.tools.inbox.gate('main', 'agent:main:main'),
});

describe('MCP sampling', { timeout: 90_000 }, () => {
  it("lends the agent's model only to a server configured with sampling: true, bounded in tokens and announced to the operator", async () => {
    const llm = await startFakeOpenAI();
    cleanups.push(() => llm.close());
    const gateway = await gatewayWith(llm);
    const client = await gateway.connect();
    const seen: Array<PayloadOf<'mcp.sampling'>> = [];
    client.on('mcp.sampling', (payload) => seen.push(payload));

    llm.reply({ text: 'Paris.', usage: { input: 12, output: 3 } });
    const answered = await gateway.core.tools.registry.invoke('mcp__lender__sample', { prompt: 'Capital of France?' }, context(gateway));
    expect(answered.isError).toBe(false);
    expect(answered.content).toContain('"text":"Paris."');
    expect(answered.content).toContain('"model":"fake/m"');
    expect(answered.content).toContain('"stopReason":"endTurn"');

    const body = llm.requests[0]!.body as { messages: Array<{ role: string; content: string }>; max_tokens: number; tools?: unknown };
    expect(body.max_tokens).toBe(4096);
    expect(body.tools).toBeUndefined();
    expect(body.messages).toEqual([
      { role: 'system', content: 'Answer briefly.' },
      { role: 'user', content: 'Capital of France?' },
    ]);
    await waitFor(() => seen.length === 2, 'start and end events');
    expect(seen.map((event) => [event.server, event.phase, event.model, event.maxTokens])).toEqual([
      ['lender', 'start', 'fake/m', 4096],
      ['lender', 'end', 'fake/m', 4096],
    ]);
    expect(seen[1]!.outputTokens).toBe(3);

    // Without sampling: true the capability is not announced, so the server's request is refused and no model is called.
    const refused = await gateway.core.tools.registry.invoke('mcp__plain__sample', { prompt: 'Capital of Spain?' }, context(gateway));
    expect(refused.isError).toBe(true);
    expect(llm.requests.length).toBe(1);
  });

  it('reports a failing model to the server and the operator', async () => {
    const llm = await startFakeOpenAI();
    cleanups.push(() => llm.close());
    const gateway = await gatewayWith(llm);
    const client = await gateway.connect();
    const seen: Array<PayloadOf<'mcp.sampling'>> = [];
    client.on('mcp.sampling', (payload) => seen.push(payload));
    llm.reply({ error: 'auth' });
    const failed = await gateway.core.tools.registry.invoke('mcp__lender__sample', { prompt: 'hi' }, context(gateway));
    expect(failed.isError).toBe(true);
    expect(failed.content).toMatch(/could not sample fake\/m for "lender"/);
    await waitFor(() => seen.some((event) => event.phase === 'error'), 'error event');
  });
});
