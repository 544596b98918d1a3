import { afterEach, describe, expect, it } from 'vitest';
import { GatewayClient } from '../../source/client/index.js';
import type { ChatEventPayload } from '../../source/protocol/index.js';
import { startFakeOpenAI } from '../support/fake-openai-server.js';
import type { FakeLlmServer } from '../support/fake-llm-common.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { startAgentGateway, type AgentGateway } from '../agent/agent-gateway.js';

const KEY = 'agent:main:main';

describe('resume by event sequence', () => {
  let gateway: AgentGateway | undefined;
  let llm: FakeLlmServer | undefined;
  let proxy: TcpProxy | undefined;
  let client: GatewayClient | undefined;

  afterEach(async () => {
    client?.close();
    await proxy?.close();
    await gateway?.stop();
    await llm?.close();
    client = gateway = llm = proxy = undefined;
  });

  it('a client whose link drops mid-stream sees every delta exactly once', async () => {
    llm = await startFakeOpenAI();
    gateway = await startAgentGateway({
      config: {
        models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {} } } } },
        agents: { defaults: { model: 'fake/m' } },
      },
    });
    const reply = Array.from({ length: 40 }, (_, i) => `word${i} `).join('');
    // Slow enough that the cut lands in the middle of the stream.
    llm.reply({ text: reply, chunkSize: 6, delayMs: 40 });
    proxy = await startTcpProxy(gateway.server.port);
    client = new GatewayClient({ url: `ws://127.0.0.1:${proxy.port}`, token: gateway.token, reconnect: true, clientName: 'resume-test' });
    await client.connect();

    const deltas: string[] = [];
    const seqs: number[] = [];
    let final: ChatEventPayload | undefined;
    client.on('chat', (payload, seq) => {
      seqs.push(seq);
      if (payload.state === 'delta') deltas.push(payload.delta);
      if (payload.state === 'final') final = payload;
    });
    const resumes: string[] = [];
    client.onHello((hello) => resumes.push(hello.resume));

    await client.request('chat.send', { sessionKey: KEY, text: 'talk slowly' });
    const deadline = Date.now() + 20_000;
    while (deltas.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(deltas.length).toBeGreaterThanOrEqual(3);
    proxy.cut();
    while (!final && Date.now() < deadline + 20_000) await new Promise((r) => setTimeout(r, 20));

    expect(resumes).toContain('replayed');
    expect(final).toMatchObject({ state: 'final', text: reply });
    expect(deltas.join('')).toBe(reply);
    expect(new Set(seqs).size).toBe(seqs.length);
  });
});
