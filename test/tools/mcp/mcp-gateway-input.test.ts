import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayClient } from '../../../source/client/index.js';
import { startFakeOpenAI } from '../../support/fake-openai-server.js';
import type { FakeLlmServer } from '../../support/fake-llm-common.js';
import { startTestGateway, type TestGateway } from '../../support/gateway-harness.js';
import { stdioServerEntry, waitFor } from '../../support/mcp-servers.js';

const KEY = 'agent:main:main';
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(): Promise<{ gateway: TestGateway; llm: FakeLlmServer; client: GatewayClient }> {
  const llm = await startFakeOpenAI();
  cleanups.push(() => llm.close());
  const gateway = await startTestGateway({
    config: {
      models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: { contextWindow: 32_000 } } } } },
      agents: { defaults: { model: 'fake/m' } },
      mcpServers: { local: stdioServerEntry({ trust: 'allow' }) },
    },
    core: {},
  });
  cleanups.push(() => gateway.stop());
  await waitFor(() => gateway.core.mcp.status()[0]?.state === 'ready', 'local ready');
  return { gateway, llm, client: await gateway.connect() };
}

function finalOf(client: GatewayClient): Promise<string> {
  return new Promise((resolve) => {
    const off = client.on('chat', (payload) => {
      if (payload.state === 'final' && payload.text !== '' && !payload.text.startsWith('Running')) {
        off();
        resolve(payload.text);
      }
    });
  });
}

const userTexts = (llm: FakeLlmServer, request: number): string[] =>
  (llm.requests[request]!.body.messages as Array<{ role: string; content: string }>).filter((m) => m.role === 'user').map((m) => m.content);

describe('MCP prompts and resources in what the operator sends', { timeout: 90_000 }, () => {
  it('serves each prompt as a slash command with its arguments and completion values, and runs it as a turn', async () => {
    const { llm, client } = await setup();
    const { commands } = await client.request('commands.list');
    const greet = commands.find((command) => command.name === 'mcp__local__greet');
    expect(greet).toEqual({
      name: 'mcp__local__greet',
      aliases: [],
      args: '<name> [style]',
      description: '[MCP local] Greet someone in a style.',
      arguments: [
        { name: 'name', required: true, values: [{ value: 'Ada' }, { value: 'Alan' }, { value: 'Grace' }] },
        { name: 'style', required: false },
      ],
    });

    const missing = await client.request('commands.run', { sessionKey: KEY, text: '/mcp__local__greet' });
    expect(missing.reply).toMatch(/needs name/);

    llm.reply({ text: 'Ahoy, Ada!' });
    const answered = finalOf(client);
    const ran = await client.request('commands.run', { sessionKey: KEY, text: '/mcp__local__greet Ada style=pirate' });
    expect(ran.reply).toBe('Running the greet prompt of MCP server "local".');
    expect(await answered).toBe('Ahoy, Ada!');
    expect(userTexts(llm, 0)).toEqual(['Greet Ada in a pirate way.']);

    // The same command typed as a message (any client, `claw send`) runs through the one registry.
    llm.reply({ text: 'Hello, Alan.' });
    const again = finalOf(client);
    await client.request('chat.send', { sessionKey: KEY, text: '/mcp__local__greet Alan' });
    expect(await again).toBe('Hello, Alan.');
    expect(userTexts(llm, 1).at(-1)).toBe('Greet Alan in a plain way.');
  });

  it('attaches the content of @server:uri mentions when the message is accepted, and refuses one that cannot be read', async () => {
    const { llm, client } = await setup();
    llm.reply({ text: 'It is the stdio readme.' });
    const answered = finalOf(client);
    await client.request('chat.send', { sessionKey: KEY, text: 'what is in @local:test://readme and @local:test://items/7?' });
    expect(await answered).toBe('It is the stdio readme.');
    const [sent] = userTexts(llm, 0);
    expect(sent).toMatch(/^what is in @local:test:\/\/readme and @local:test:\/\/items\/7\?\n\nAttached @local:test:\/\/readme \(text\/plain\):\n<untrusted/);
    expect(sent).toContain('readme of stdio');
    expect(sent).toContain('Attached @local:test://items/7 (text/plain):');
    expect(sent).toContain('item 7');

    await expect(client.request('chat.send', { sessionKey: KEY, text: 'see @local:test://nothing' })).rejects.toThrow(
      /Could not attach @local:test:\/\/nothing: .*Fix or remove the mention/,
    );
    // A name that is not an MCP server is not a mention to resolve.
    llm.reply({ text: 'ok' });
    const plain = finalOf(client);
    await client.request('chat.send', { sessionKey: KEY, text: 'mail @bob:mailto:bob@example.com' });
    await plain;
    expect(userTexts(llm, 1).at(-1)).toBe('mail @bob:mailto:bob@example.com');
  });
});
