import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pluginPaths } from '../../source/plugins/index.js';
import { recordEvents, type EventLog } from '../context/context-gateway.js';
import type { FakeLlmServer } from '../support/fake-llm-common.js';
import { startFakeOpenAI } from '../support/fake-openai-server.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { EXAMPLE_PLUGIN, installAndGrant, writePlugin } from './plugin-fixtures.js';

const KEY = 'agent:main:main';
const SECRET = 'acme-secret-value-9f3k2';

let gateway: TestGateway | undefined;
let llm: FakeLlmServer | undefined;

afterEach(async () => {
  await gateway?.stop();
  await llm?.close();
  gateway = llm = undefined;
});

async function startWithExample(extra: Record<string, unknown> = {}): Promise<{ gateway: TestGateway; events: EventLog }> {
  llm = await startFakeOpenAI();
  gateway = await startTestGateway({
    config: {
      models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {} } } } },
      agents: { defaults: { model: 'fake/m' } },
      plugins: { entries: { 'acme-weather': { config: { units: 'imperial' } } } },
      ...extra,
    },
    core: { env: { ...process.env, ACME_WEATHER_KEY: SECRET } },
  });
  installAndGrant(pluginPaths(gateway.state.paths), EXAMPLE_PLUGIN);
  await gateway.core.plugins.reload();
  const client = await gateway.connect();
  return { gateway, events: recordEvents(client) };
}

describe('the example plugin in a running gateway', () => {
  it('contributes a tool the model calls, a slash command, a turn:end hook and a provider the agent can use', async () => {
    const { gateway, events } = await startWithExample();
    const client = await gateway.connect();
    const { plugins } = await client.request('plugins.list', {});
    expect(plugins).toEqual([expect.objectContaining({ id: 'acme-weather', state: 'running', granted: true })]);

    // The tool, as the model sees it and calls it.
    llm!.reply({ toolCalls: [{ id: 'c1', name: 'acme-weather__convert_temperature', arguments: { celsius: 20 } }] }, { text: 'It is 68 °F.' });
    const { runId } = await client.request('chat.send', { sessionKey: KEY, text: 'convert 20 C' });
    await events.runEnded(runId);
    const offered = (llm!.requests[0]!.body.tools as Array<{ function: { name: string } }>).map((tool) => tool.function.name);
    expect(offered).toContain('acme-weather__convert_temperature');
    expect(offered).toContain('acme-weather__weather_now');
    const toolMessage = (llm!.requests[1]!.body.messages as Array<{ role: string; content: unknown }>).find((message) => message.role === 'tool');
    expect(toolMessage?.content).toBe('68 °F');

    // The turn:end hook counted that turn in the plugin's storage; the command reads it back.
    const storage = pluginPaths(gateway.state.paths).storage('acme-weather');
    for (let i = 0; i < 250 && !(existsSync(storage) && readFileSync(storage, 'utf8').includes('turns')); i += 1) await new Promise((r) => setTimeout(r, 20));
    expect(JSON.parse(readFileSync(storage, 'utf8'))).toEqual({ turns: 1 });
    const command = await client.request('commands.run', { sessionKey: KEY, text: '/weather hello' });
    expect(command.reply).toBe('acme-weather: 1 turn(s) seen; units imperial; you said "hello"');
    const listed = await client.request('commands.list', {});
    expect(listed.commands.map((c: { name: string }) => c.name)).toContain('weather');

    // The provider: a session on acme/echo-1 is answered by the plugin's model.
    const switched = await client.request('commands.run', { sessionKey: 'agent:main:tui:direct:echo', text: '/model acme/echo-1' });
    expect(switched.reply).toContain('acme/echo-1');
    const echo = await client.request('chat.send', { sessionKey: 'agent:main:tui:direct:echo', text: 'ping through a plugin' });
    await events.runEnded(echo.runId);
    const { entries } = await client.request('sessions.history', { key: 'agent:main:tui:direct:echo', limit: 10 });
    const replies = entries.filter((entry) => 'role' in entry && entry.role === 'assistant');
    expect(JSON.stringify(replies.at(-1))).toContain('acme echo: ping through a plugin');
    expect(llm!.requests).toHaveLength(2);
  }, 60_000);
});

describe('a plugin provider only classifies its failures', () => {
  it('claw cools it down and fails over to the next model, as for a built-in provider', async () => {
    llm = await startFakeOpenAI();
    gateway = await startTestGateway({
      config: {
        models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {} } } } },
        agents: { defaults: { model: 'flaky/m1', fallbacks: ['fake/m'] } },
      },
      core: {},
    });
    const dir = writePlugin(
      join(gateway.state.dir, 'src', 'flaky'),
      { id: 'flaky-provider', contributes: { providers: ['flaky'] } },
      `ctx.providers.register({
         id: 'flaky',
         models: () => ['m1'],
         async *stream() { throw new Error('429 slow down'); },
         classifyError: (error) => (/429/.test(error.message) ? 'rate_limit' : 'server'),
       });`,
    );
    installAndGrant(pluginPaths(gateway.state.paths), dir);
    await gateway.core.plugins.reload();
    const client = await gateway.connect();
    const events = recordEvents(client);
    llm.reply({ text: 'answered by the fallback' });
    const { runId } = await client.request('chat.send', { sessionKey: KEY, text: 'hello' });
    await events.runEnded(runId);
    const { entries } = await client.request('sessions.history', { key: KEY, limit: 10 });
    expect(JSON.stringify(entries.filter((entry) => 'role' in entry && entry.role === 'assistant').at(-1) ?? null)).toContain('answered by the fallback');
    // The move to the fallback is told to clients (a retry event of attempt 0), not a failure of the turn.
    expect(events.agent).toContainEqual(expect.objectContaining({ stream: 'retry', model: 'fake/m', attempt: 0 }));
    expect(gateway.core.providers.cooldowns()).toEqual([expect.objectContaining({ provider: 'flaky', kind: 'rate_limit' })]);
    expect(gateway.core.plugins.list()[0]?.state).toBe('running');
  }, 60_000);
});

describe('plugin hooks', () => {
  it('a tool:before hook blocks a call with its reason, as a HOOK.md hook does; other calls go on', async () => {
    llm = await startFakeOpenAI();
    gateway = await startTestGateway({
      config: { models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {} } } } }, agents: { defaults: { model: 'fake/m' } } },
      core: {},
    });
    const dir = writePlugin(
      join(gateway.state.dir, 'src', 'guard'),
      { id: 'guard', contributes: { hooks: ['tool:before'] } },
      `ctx.hooks.on('tool:before', ({ tool, args }) => tool === 'memory_get' && String(args.path).includes('secret') ? { block: true, reason: 'no secret notes' } : undefined);`,
    );
    installAndGrant(pluginPaths(gateway.state.paths), dir);
    await gateway.core.plugins.reload();
    const client = await gateway.connect();
    const events = recordEvents(client);
    llm.reply(
      {
        toolCalls: [
          { id: 'a', name: 'memory_get', arguments: { path: 'memory/secret.md' } },
          { id: 'b', name: 'memory_get', arguments: { path: 'MEMORY.md' } },
        ],
      },
      { text: 'done' },
    );
    const { runId } = await client.request('chat.send', { sessionKey: KEY, text: 'read my notes' });
    await events.runEnded(runId);
    const results = (llm.requests[1]!.body.messages as Array<{ role: string; tool_call_id?: string; content: unknown }>).filter(
      (message) => message.role === 'tool',
    );
    expect(String(results.find((message) => message.tool_call_id === 'a')?.content)).toContain('no secret notes');
    expect(String(results.find((message) => message.tool_call_id === 'b')?.content)).not.toContain('no secret notes');
  }, 60_000);
});
