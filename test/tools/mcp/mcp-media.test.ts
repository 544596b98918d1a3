import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '../../../source/protocol/index.js';
import { McpManager } from '../../../source/tools/mcp/index.js';
import { configSchema } from '../../../source/config/index.js';
import { collectRun, startAgentGateway, type AgentGateway } from '../../agent/agent-gateway.js';
import { startFakeAnthropic } from '../../support/fake-anthropic-server.js';
import type { FakeLlmServer } from '../../support/fake-llm-common.js';
import { startFakeOpenAI } from '../../support/fake-openai-server.js';
import { stdioServerEntry, waitFor } from '../../support/mcp-servers.js';
import { TEST_PNG_BASE64 } from '../../support/mcp-test-tools.js';

const KEY = 'agent:main:main';
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function providerConfig(api: 'openai' | 'anthropic', server: FakeLlmServer): Record<string, unknown> {
  return {
    models: { providers: { fake: { api, baseUrl: server.baseUrl, models: { m: { contextWindow: 32_000, cost: { input: 1, output: 2 } } } } } },
    agents: { defaults: { model: 'fake/m' } },
  };
}

/** A real agent gateway whose registry also holds the tools of the SDK stdio test server. */
async function gatewayWithMcp(llm: FakeLlmServer, api: 'openai' | 'anthropic'): Promise<AgentGateway> {
  const gateway = await startAgentGateway({ config: providerConfig(api, llm) });
  cleanups.push(() => gateway.stop());
  const config = configSchema.parse({ mcpServers: { local: stdioServerEntry({ trust: 'allow' }) } });
  const manager = new McpManager(config.mcpServers, { registry: gateway.registry });
  cleanups.push(() => manager.close());
  manager.start();
  await waitFor(() => manager.status()[0]?.state === 'ready', 'local ready');
  return gateway;
}

async function imageTurn(gateway: AgentGateway, llm: FakeLlmServer): Promise<TranscriptEntry[]> {
  llm.reply({ toolCalls: [{ id: 'call_img', name: 'mcp__local__image', arguments: {} }] }, { text: 'A single pixel.' });
  const client = await gateway.connect();
  const run = collectRun(client);
  await client.request('chat.send', { sessionKey: KEY, text: 'what does the image tool show?' });
  expect(await run.ended()).toMatchObject({ state: 'final', text: 'A single pixel.' });
  const { entries } = await client.request('sessions.history', { key: KEY, limit: 100 });
  return entries;
}

describe('images from MCP tool results reach the model', { timeout: 90_000 }, () => {
  it('as an image part of the tool_result on the Anthropic Messages API, stored as a file beside the transcript', async () => {
    const llm = await startFakeAnthropic();
    cleanups.push(() => llm.close());
    const gateway = await gatewayWithMcp(llm, 'anthropic');
    const entries = await imageTurn(gateway, llm);

    const messages = llm.requests[1]!.body.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>;
    const result = messages.flatMap((m) => m.content).find((block) => block.type === 'tool_result')!;
    expect(result.tool_use_id).toBe('call_img');
    const parts = result.content as Array<Record<string, unknown>>;
    expect(parts[0]).toMatchObject({ type: 'text' });
    expect(String(parts[0]!.text)).toContain('[image 1: image/png, ');
    expect(parts[1]).toEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: TEST_PNG_BASE64 } });

    // The transcript keeps a reference, not the base64: the bytes are a file in the agent's sessions folder.
    const stored = entries.find((e) => e.type === 'message' && e.role === 'toolResult');
    expect(stored).toMatchObject({ media: [{ kind: 'image', mimeType: 'image/png', bytes: Buffer.from(TEST_PNG_BASE64, 'base64').length }] });
    const ref = (stored as { media: Array<{ file: string }> }).media[0]!;
    const sessionsDir = gateway.state.paths.sessionsDir('main');
    expect(readFileSync(join(sessionsDir, ref.file))).toEqual(Buffer.from(TEST_PNG_BASE64, 'base64'));
    const transcript = readdirSync(sessionsDir).filter((name) => name.endsWith('.jsonl'));
    for (const name of transcript) expect(readFileSync(join(sessionsDir, name), 'utf8')).not.toContain(TEST_PNG_BASE64);
  });

  it('as an image_url data URL in a user message after the tool messages on Chat Completions', async () => {
    const llm = await startFakeOpenAI();
    cleanups.push(() => llm.close());
    const gateway = await gatewayWithMcp(llm, 'openai');
    await imageTurn(gateway, llm);

    const messages = llm.requests[1]!.body.messages as Array<{ role: string; content: unknown }>;
    const toolIndex = messages.findIndex((m) => m.role === 'tool');
    expect(String(messages[toolIndex]!.content)).toContain('[image 1: image/png, ');
    const media = messages[toolIndex + 1]!;
    expect(media.role).toBe('user');
    expect(media.content).toEqual([
      { type: 'text', text: 'Media returned by the mcp__local__image call call_img:' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${TEST_PNG_BASE64}` } },
    ]);
  });

  it('keeps only the description when the stored file is gone', async () => {
    const llm = await startFakeAnthropic();
    cleanups.push(() => llm.close());
    const gateway = await gatewayWithMcp(llm, 'anthropic');
    await imageTurn(gateway, llm);
    const mediaDir = join(gateway.state.paths.sessionsDir('main'), 'media');
    expect(existsSync(mediaDir)).toBe(true);
    for (const name of readdirSync(mediaDir)) rmSync(join(mediaDir, name));

    llm.reply({ text: 'ok' });
    const client = await gateway.connect();
    const run = collectRun(client);
    await client.request('chat.send', { sessionKey: KEY, text: 'again?' });
    await run.ended();
    const body = JSON.stringify(llm.requests[2]!.body);
    expect(body).toContain('[image 1: image/png, ');
    expect(body).not.toContain('"type":"image"');
  });
});
