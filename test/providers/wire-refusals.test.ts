import { afterEach, describe, expect, it } from 'vitest';
import { configSchema } from '../../source/config/index.js';
import type { TranscriptEntry } from '../../source/protocol/index.js';
import { McpManager } from '../../source/tools/mcp/index.js';
import { ToolRegistry } from '../../source/tools/index.js';
import { collectRun, startAgentGateway, waitFor, type AgentGateway } from '../agent/agent-gateway.js';
import { startFakeAnthropic } from '../support/fake-anthropic-server.js';
import type { FakeLlmServer, FakeReply } from '../support/fake-llm-common.js';
import { tsNodeArgs, waitFor as waitForValue } from '../support/mcp-servers.js';

const KEY = 'agent:main:main';
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Block = Record<string, unknown>;
type Message = { role: string; content: Block[] };

/** A real gateway and agent on a fake of the Messages API that refuses what the real one refuses (test/support/strict-wire.ts). */
async function strictGateway(): Promise<{ llm: FakeLlmServer; gateway: AgentGateway }> {
  const llm = await startFakeAnthropic();
  cleanups.push(() => llm.close());
  const gateway = await startAgentGateway({
    config: {
      models: { providers: { fake: { api: 'anthropic', baseUrl: llm.baseUrl, models: { m: { contextWindow: 32_000 } } } } },
      agents: { defaults: { model: 'fake/m' } },
    },
  });
  cleanups.push(() => gateway.stop());
  return { llm, gateway };
}

async function turn(gateway: AgentGateway, text: string, wait = true): Promise<ReturnType<typeof collectRun>> {
  const client = await gateway.connect();
  const run = collectRun(client);
  await client.request('chat.send', { sessionKey: KEY, text });
  if (wait) await run.ended();
  return run;
}

/** One more turn after the scripted ones: refused, it would fail every turn of the session from now on. */
async function nextTurnIsAccepted(gateway: AgentGateway, llm: FakeLlmServer): Promise<Message[]> {
  llm.reply({ text: 'still here' });
  const run = await turn(gateway, 'are you still there?', false);
  expect(await run.ended()).toMatchObject({ state: 'final', text: 'still here' });
  expect(llm.refusals).toEqual([]);
  return llm.requests.at(-1)!.body.messages as Message[];
}

const blocksOf = (messages: Message[], type: string): Block[] => messages.flatMap((m) => m.content).filter((b) => b.type === type);

describe('requests the Messages API refuses are never built, so no session is poisoned', { timeout: 60_000 }, () => {
  it('"\\n\\n" before a tool call and a whitespace-only reply are not sent back as text blocks', async () => {
    const { llm, gateway } = await strictGateway();
    const replies: FakeReply[] = [{ text: '\n\n', toolCalls: [{ id: 'c1', name: 'read', arguments: { path: 'missing.txt' } }] }, { text: ' \n ' }];
    llm.reply(...replies);
    await turn(gateway, 'read it');
    const messages = await nextTurnIsAccepted(gateway, llm);
    expect(blocksOf(messages, 'text').every((b) => String(b.text).trim() !== '')).toBe(true);
    expect(blocksOf(messages, 'tool_use')).toHaveLength(1);
  });

  it('redacted thinking is kept and sent back verbatim, beside signed thinking', async () => {
    const { llm, gateway } = await strictGateway();
    llm.reply({ redactedThinking: 'EncryptedOpaque==', thinking: 'weighing it', text: 'hi' });
    await turn(gateway, 'hello');
    const messages = await nextTurnIsAccepted(gateway, llm);
    expect(messages[1]!.content.slice(0, 2)).toEqual([
      { type: 'redacted_thinking', data: 'EncryptedOpaque==' },
      { type: 'thinking', thinking: 'weighing it', signature: 'fake-signature' },
    ]);
  });

  it('an abort in the middle of thinking leaves unsigned thinking on disk, which is never sent back', async () => {
    const { llm, gateway } = await strictGateway();
    llm.reply({ thinking: 'a long line of thought that never ends', chunkSize: 4, hang: true });
    const run = await turn(gateway, 'think hard', false);
    const client = await gateway.connect();
    const stored = async (): Promise<TranscriptEntry[]> => (await client.request('sessions.history', { key: KEY, limit: 100 })).entries;
    await waitFor(() => llm.requests.length === 1, 'the model call');
    // The turn loop holds the thinking only in memory until the abort writes it.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await client.request('chat.abort', { sessionKey: KEY });
    expect((await run.ended()).state).toBe('aborted');
    const assistant = (await stored()).find((e) => e.type === 'message' && e.role === 'assistant');
    expect(assistant).toMatchObject({ stopReason: 'aborted', content: [{ type: 'thinking', text: 'a lo' }] });
    const messages = await nextTurnIsAccepted(gateway, llm);
    expect(blocksOf(messages, 'thinking')).toEqual([]);
  });
});

describe('an MCP server with keys, formats and images as servers in the wild send them', { timeout: 90_000 }, () => {
  it('keys are mapped to the API pattern and back, uri-reference is not a URL, a JPEG labelled PNG goes as JPEG', async () => {
    const { llm, gateway } = await strictGateway();
    const config = configSchema.parse({
      mcpServers: { wild: { command: process.execPath, args: tsNodeArgs('mcp-wild-server.ts'), trust: 'allow' } },
    });
    const manager = new McpManager(config.mcpServers, { registry: gateway.registry });
    cleanups.push(() => manager.close());
    manager.start();
    await waitForValue(() => manager.status()[0]?.state === 'ready', 'wild ready');
    // A server without resources/templates/list is still ready, and says what it lacks.
    expect(manager.status()[0]?.warnings?.[0]).toMatch(/^resources\/templates\/list failed \(MCP error -32601: Method not found\)/);
    expect(manager.status()[0]?.resourceCount).toBe(1);

    const args = { file_path: 'a/b.txt', gro_e: 3, format: 'text', meta_data: { owner_name: 'ann' } };
    llm.reply(
      { toolCalls: [{ id: 'c1', name: 'mcp__wild__put', arguments: args }] },
      { toolCalls: [{ id: 'c2', name: 'mcp__wild__photo', arguments: {} }] },
      { text: 'stored and photographed' },
    );
    await turn(gateway, 'store it and take a photo');
    const tools = llm.requests[0]!.body.tools as Array<{ name: string; input_schema: Block }>;
    const put = tools.find((tool) => tool.name === 'mcp__wild__put')!;
    expect(Object.keys(put.input_schema.properties as Block)).toEqual(['file_path', 'gro_e', 'format', 'meta_data']);
    expect(put.input_schema.required).toEqual(['file_path', 'gro_e']);

    const messages = await nextTurnIsAccepted(gateway, llm);
    const results = blocksOf(messages, 'tool_result');
    // The server got its own keys back, nested ones too, and the relative path passed validation.
    expect(JSON.stringify(results[0]!.content)).toContain(
      String.raw`received {\"file path\":\"a/b.txt\",\"größe\":3,\"format\":\"text\",\"meta data\":{\"owner name\":\"ann\"}}`,
    );
    const image = (results[1]!.content as Block[]).find((part) => part.type === 'image')!;
    expect((image.source as Block).media_type).toBe('image/jpeg');
  });
});

describe('a server too big for one request', { timeout: 60_000 }, () => {
  it('with defer: "never" and more tools than Chat Completions takes, its status says the last ones are not sent', async () => {
    const server = (defer: string) =>
      configSchema.parse({
        mcpServers: { wild: { command: process.execPath, args: tsNodeArgs('mcp-wild-server.ts'), env: { WILD_BULK: '140' }, trust: 'allow', defer } },
      }).mcpServers;
    for (const defer of ['never', 'auto']) {
      const manager = new McpManager(server(defer), { registry: new ToolRegistry() });
      cleanups.push(() => manager.close());
      manager.start();
      await waitForValue(() => manager.status()[0]?.state === 'ready', 'wild ready');
      const warnings = manager.status()[0]?.warnings ?? [];
      const tooBig = warnings.filter((w) => w.includes('defer: "never"'));
      if (defer === 'never')
        expect(tooBig).toEqual([expect.stringMatching(/^142 tools with defer: "never", but OpenAI Chat Completions takes 128 per request/)]);
      else expect(tooBig).toEqual([]);
    }
  });
});

describe('failures that tell the truth', { timeout: 60_000 }, () => {
  it('a stream cut after text says so and keeps the text, without blaming the network settings', async () => {
    const { llm, gateway } = await strictGateway();
    llm.reply({ text: 'the first half of an answer', chunkSize: 4, disconnectAfter: 5 });
    const run = await turn(gateway, 'tell me', false);
    const end = await run.ended();
    expect(end.state).toBe('error');
    const said = end.state === 'error' ? `${end.message} ${end.hint ?? ''}` : '';
    expect(said).toContain('cut off mid-stream');
    expect(said).toContain('/retry');
    expect(said).not.toContain('base URL');
  });

  it('an overflow reports the window the provider states, and nothing compacted that was not', async () => {
    const { llm, gateway } = await strictGateway();
    llm.setDefault({
      status: 400,
      body: JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 20000 tokens > 16385 maximum' } }),
    });
    const run = await turn(gateway, 'hello', false);
    const end = await run.ended();
    const said = end.state === 'error' ? `${end.message} ${end.hint ?? ''}` : '';
    expect(said).toContain("16385 tokens as the provider reports it; claw's config says 32000");
    expect(said).not.toContain('even after compacting');
    expect(said).toContain('contextWindow to 16385');
  });
});

describe('Chat Completions limits', () => {
  it('a tool description over 1,024 characters is cut with a mark instead of failing every request', async () => {
    const { startFakeOpenAI } = await import('../support/fake-openai-server.js');
    const { makeTempState } = await import('../support/temp-state.js');
    const { baseRequest, collect, makeProviders, textOf } = await import('./helpers.js');
    const llm = await startFakeOpenAI();
    const state = makeTempState();
    cleanups.push(
      () => llm.close(),
      () => state.cleanup(),
    );
    const providers = makeProviders(state, { models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {} } } } } });
    llm.reply({ text: 'fine' });
    const tool = { name: 'mcp__big__do', description: `[MCP server big] ${'Does many things. '.repeat(100)}`, parameters: { type: 'object', properties: {} } };
    expect(textOf(await collect(providers.streamTurn(baseRequest('fake/m', { tools: [tool] }))))).toBe('fine');
    expect(llm.refusals).toEqual([]);
    const sent = (llm.requests[0]!.body.tools as Array<{ function: { description: string } }>)[0]!.function.description;
    expect(sent).toHaveLength(1024);
    expect(sent.endsWith(' […]')).toBe(true);
  });
});
