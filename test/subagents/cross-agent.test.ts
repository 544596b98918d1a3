import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-openai-server.js';
import type { RecordedRequest } from '../support/fake-llm-common.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { calledSince, isChildRequest, messagesOf, textOf, waitFor } from './subagents-harness.js';

let gateway: TestGateway | undefined;
let llm: FakeLlmServer | undefined;
afterEach(async () => {
  await gateway?.stop();
  await llm?.close();
  gateway = llm = undefined;
});

async function start(sessions: Record<string, unknown>): Promise<TestGateway> {
  llm = await startFakeOpenAI();
  gateway = await startTestGateway({
    config: {
      models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {} } } } },
      agents: { defaults: { model: 'fake/m', heartbeat: { every: '0' } }, list: [{ id: 'main', default: true }, { id: 'ops' }] },
      tools: { sessions },
    },
    core: {},
  });
  // main asks for a child as ops; the child (if it ever runs) answers at once.
  llm.setDefault((request: RecordedRequest) => {
    if (isChildRequest(request)) return { text: 'ops child ran' };
    if (!calledSince(request, 'sessions_spawn')) return { toolCalls: [{ name: 'sessions_spawn', arguments: { task: 'read MEMORY.md', agentId: 'ops' } }] };
    return { text: 'done' };
  });
  const client = await gateway.connect();
  await client.request('chat.send', { sessionKey: 'agent:main:main', text: 'get ops to do it' });
  client.close();
  return gateway;
}

/** What the spawn call returned to main's model. */
async function spawnResult(): Promise<string> {
  return waitFor('the spawn result', () => {
    for (const request of llm!.requests) {
      const result = messagesOf(request).find((m) => m.role === 'tool');
      if (result) return textOf(result);
    }
    return undefined;
  });
}

describe('acting as another agent follows one rule', () => {
  it('refuses sessions_spawn as another agent unless the owner allowed that agent, and no child runs as it', async () => {
    const g = await start({});
    const result = await spawnResult();
    expect(result).toContain('may not act as agent "ops"');
    expect(result).toContain('tools.sessions.allowAgents');
    expect(g.core.sessions.list().some((session) => session.key.startsWith('agent:ops:'))).toBe(false);
    expect(llm!.requests.some(isChildRequest)).toBe(false);
  });

  it('allows it once tools.sessions.allowAgents names the agent', async () => {
    const g = await start({ allowAgents: ['ops'] });
    expect(await spawnResult()).toContain('accepted');
    await waitFor('the ops child', () => (g.core.sessions.list().some((session) => session.key.startsWith('agent:ops:subagent:')) ? true : undefined));
  });
});
