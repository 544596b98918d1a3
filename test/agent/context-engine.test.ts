import { afterEach, describe, expect, it } from 'vitest';
import { CONTEXT_ENGINES, contextEngineFactory } from '../../source/agent/index.js';
import { startFakeOpenAI } from '../support/fake-openai-server.js';
import type { FakeLlmServer } from '../support/fake-llm-common.js';
import { collectRun, startAgentGateway, type AgentGateway } from './agent-gateway.js';

let gateway: AgentGateway | undefined;
let llm: FakeLlmServer | undefined;

afterEach(async () => {
  await gateway?.stop();
  await llm?.close();
  gateway = llm = undefined;
});

function config(server: FakeLlmServer, engine: string): Record<string, unknown> {
  return {
    models: { providers: { fake: { api: 'openai', baseUrl: server.baseUrl, models: { m: { contextWindow: 32_000 } } } } },
    agents: { defaults: { model: 'fake/m', contextEngine: engine } },
  };
}

describe('context engines are chosen by name', () => {
  it('the default engine answers a turn; an unknown one fails it, naming the known engines and the fix, before any model call', async () => {
    expect(Object.keys(CONTEXT_ENGINES)).toEqual(['default', 'recall']);
    expect(() => contextEngineFactory('lossless')).toThrow(/"lossless", which is not a context engine. Known: default, recall/);

    llm = await startFakeOpenAI();
    gateway = await startAgentGateway({ config: config(llm, 'default') });
    llm.reply({ text: 'fine' });
    let client = await gateway.connect();
    let run = collectRun(client);
    await client.request('chat.send', { sessionKey: 'agent:main:main', text: 'hi' });
    expect(await run.ended()).toMatchObject({ state: 'final', text: 'fine' });
    await gateway.stop();

    gateway = await startAgentGateway({ config: config(llm, 'lossless') });
    const calls = llm.requests.length;
    client = await gateway.connect();
    run = collectRun(client);
    await client.request('chat.send', { sessionKey: 'agent:main:main', text: 'hi' });
    const end = await run.ended();
    expect(end.state).toBe('error');
    expect(end.state === 'error' ? end.message : '').toContain('claw config set agents.defaults.contextEngine default');
    expect(llm.requests.length).toBe(calls);
  });
});
