import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, toolOk, type ToolDefinition } from '../../source/tools/index.js';
import type { RecordedRequest } from '../support/fake-llm-common.js';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-openai-server.js';
import { collectRun, startAgentGateway, type AgentGateway } from './agent-gateway.js';

let gateway: AgentGateway | undefined;
let llm: FakeLlmServer | undefined;
afterEach(async () => {
  await gateway?.stop();
  await llm?.close();
  gateway = llm = undefined;
});

/** 150 tools of one MCP server, as a big server (Azure in --mode all) brings them. */
function bulkTools(): ToolDefinition[] {
  return Array.from(
    { length: 150 },
    (_, i) =>
      defineTool({
        name: `mcp__bulk__op${i}`,
        group: 'mcp',
        risk: 'low',
        description: i === 77 ? 'Rotate the storage account keys of a subscription.' : `Bulk operation number ${i} on cloud resources.`,
        input: z.strictObject({}),
        async execute() {
          return toolOk(`op${i} done`);
        },
      }) as unknown as ToolDefinition,
  );
}

const toolNames = (request: RecordedRequest): string[] => ((request.body.tools ?? []) as Array<{ function: { name: string } }>).map((t) => t.function.name);
const lastToolResult = (request: RecordedRequest): string => {
  const messages = (request.body.messages ?? []) as Array<{ role: string; content: unknown }>;
  return String([...messages].reverse().find((m) => m.role === 'tool')?.content ?? '');
};

describe('tool search when every tool would not fit a request', () => {
  it('sends the built-ins and tool_search instead of 150 MCP tools; what it finds is sent from the next call on', async () => {
    llm = await startFakeOpenAI();
    gateway = await startAgentGateway({
      config: {
        models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {} } } } },
        agents: { defaults: { model: 'fake/m' } },
        tools: { profile: 'full' },
      },
      tools: bulkTools(),
    });
    llm.setDefault((request) => {
      const result = lastToolResult(request);
      if (result.includes('op77 done')) return { text: 'keys rotated' };
      if (result.includes('Loaded')) return { toolCalls: [{ name: 'mcp__bulk__op77', arguments: {} }] };
      return { toolCalls: [{ name: 'tool_search', arguments: { query: 'rotate storage keys' } }] };
    });
    const client = await gateway.connect();
    const run = collectRun(client);
    await client.request('chat.send', { sessionKey: 'agent:main:main', text: 'rotate the storage keys' });
    expect(await run.ended()).toMatchObject({ state: 'final', text: 'keys rotated' });
    expect(llm.refusals).toEqual([]);
    const [first, second] = llm.requests;
    expect(toolNames(first!)).toContain('tool_search');
    expect(toolNames(first!).filter((name) => name.startsWith('mcp__'))).toEqual([]);
    expect(toolNames(first!).length).toBeLessThanOrEqual(128);
    expect(toolNames(second!)).toContain('mcp__bulk__op77');
    expect(lastToolResult(second!)).toContain('Rotate the storage account keys');
    const report = await gateway.runtime.contextReport({ key: 'agent:main:main', agentId: 'main', kind: 'main', model: undefined, channel: 'tui' });
    expect(report.deferredTools.count).toBe(149);
    expect(report.deferredTools.chars).toBeGreaterThan(10_000);
    expect(report.loadedTools).toBe(1);
    expect(report.droppedTools).toEqual([]);
  });

  it('a server that may not wait (defer: "never") past the 128 tools the API takes is named in /context as not sent', async () => {
    llm = await startFakeOpenAI();
    gateway = await startAgentGateway({
      config: {
        models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {} } } } },
        agents: { defaults: { model: 'fake/m' } },
        tools: { profile: 'full' },
        mcpServers: { bulk: { command: 'true', defer: 'never' } },
      },
      tools: bulkTools(),
    });
    llm.reply({ text: 'hi' });
    const client = await gateway.connect();
    const run = collectRun(client);
    await client.request('chat.send', { sessionKey: 'agent:main:main', text: 'hello' });
    await run.ended();
    expect(llm.refusals).toEqual([]);
    expect(toolNames(llm.requests[0]!)).toHaveLength(128);
    const report = await gateway.runtime.contextReport({ key: 'agent:main:main', agentId: 'main', kind: 'main', model: undefined, channel: 'tui' });
    expect(report.deferredTools.count).toBe(0);
    expect(report.tools).toHaveLength(128);
    // The built-ins and the first MCP tools are sent; the rest are named, none twice.
    expect(report.droppedTools.length).toBe(gateway.registry.list().filter((tool) => tool.name !== 'tool_search').length - 128);
    expect(report.droppedTools.filter((name) => report.tools.includes(name))).toEqual([]);
    expect(report.droppedTools.every((name) => name.startsWith('mcp__bulk__'))).toBe(true);
  });

  it('with few tools nothing is deferred and tool_search is not offered', async () => {
    llm = await startFakeOpenAI();
    gateway = await startAgentGateway({
      config: { models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {} } } } }, agents: { defaults: { model: 'fake/m' } } },
      tools: bulkTools().slice(0, 3),
    });
    llm.reply({ text: 'hi' });
    const client = await gateway.connect();
    const run = collectRun(client);
    await client.request('chat.send', { sessionKey: 'agent:main:main', text: 'hello' });
    await run.ended();
    expect(toolNames(llm.requests[0]!)).not.toContain('tool_search');
    expect(toolNames(llm.requests[0]!)).toContain('mcp__bulk__op0');
  });

  it('a server with defer: "always" waits behind tool_search even when everything would fit', async () => {
    llm = await startFakeOpenAI();
    gateway = await startAgentGateway({
      config: {
        models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {} } } } },
        agents: { defaults: { model: 'fake/m' } },
        tools: { profile: 'full' },
        mcpServers: { bulk: { command: 'true', defer: 'always' } },
      },
      tools: bulkTools().slice(0, 3),
    });
    llm.reply({ text: 'hi' });
    const client = await gateway.connect();
    const run = collectRun(client);
    await client.request('chat.send', { sessionKey: 'agent:main:main', text: 'hello' });
    await run.ended();
    expect(toolNames(llm.requests[0]!)).toContain('tool_search');
    expect(toolNames(llm.requests[0]!).filter((name) => name.startsWith('mcp__'))).toEqual([]);
  });
});
