import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readWebhookTokenSync } from '../../source/hooks/index.js';
import { writeExecApprovalsFile } from '../../source/tools/index.js';
import { makeTempState } from '../support/temp-state.js';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-openai-server.js';
import type { RecordedRequest } from '../support/fake-llm-common.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { calledSince, isChildRequest, lastUserText, messagesOf, textOf, toolNamesOf, waitFor } from './subagents-harness.js';

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

  it('a child spawned as another agent gets the stricter of both policies: no tool its parent agent lacks, no command its parent would ask for', async () => {
    llm = await startFakeOpenAI();
    const state = makeTempState();
    // ops would run anything unasked; main asks for what is not on its allowlist.
    writeExecApprovalsFile(state.paths.execApprovals, {
      version: 1,
      security: 'allowlist',
      ask: 'on-miss',
      safeList: true,
      agents: { ops: { security: 'full', rules: [] } },
    });
    gateway = await startTestGateway({
      state,
      config: {
        models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {} } } } },
        agents: {
          defaults: { model: 'fake/m', heartbeat: { every: '0' } },
          list: [{ id: 'main', default: true, tools: { deny: ['web_fetch'] } }, { id: 'ops' }],
        },
        tools: { sessions: { allowAgents: ['ops'] } },
      },
      core: {},
    });
    const g = gateway;
    llm.setDefault((request: RecordedRequest) => {
      if (isChildRequest(request)) {
        if (!calledSince(request, 'exec')) return { toolCalls: [{ name: 'exec', arguments: { command: 'touch planted-by-child' } }] };
        return { text: 'ops child ran' };
      }
      if (!calledSince(request, 'sessions_spawn')) return { toolCalls: [{ name: 'sessions_spawn', arguments: { task: 'touch a file', agentId: 'ops' } }] };
      return { text: 'done' };
    });
    const client = await g.connect();
    await client.request('chat.send', { sessionKey: 'agent:main:main', text: 'get ops to do it' });
    const child = await waitFor('the child turn', () => llm!.requests.find(isChildRequest));
    expect(toolNamesOf(child)).toContain('exec');
    expect(toolNamesOf(child)).not.toContain('web_fetch');
    const pending = await waitFor('the approval request', async () =>
      (await client.request('approvals.list', {})).approvals.find((a) => a.kind === 'exec' && a.status === 'pending'),
    );
    expect(pending.reason).toContain('agent "main", which this child acts for');
    expect(existsSync(join(g.state.paths.workspace('ops'), 'planted-by-child'))).toBe(false);
    await client.request('approvals.resolve', { id: pending.id, decision: 'deny' });
    await waitFor('the child to finish', () => llm!.requests.some((r) => isChildRequest(r) && calledSince(r, 'exec')));
    expect(existsSync(join(g.state.paths.workspace('ops'), 'planted-by-child'))).toBe(false);
    const childSession = g.core.sessions.list().find((session) => session.key.startsWith('agent:ops:subagent:'));
    expect(childSession?.actingFor).toEqual({ principal: 'owner', agents: ['main'] });
  });

  it("a child runs with its parent's principal: a webhook-asked turn's child gets the webhook's tool profile", async () => {
    llm = await startFakeOpenAI();
    gateway = await startTestGateway({
      config: {
        models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {} } } } },
        agents: { defaults: { model: 'fake/m', heartbeat: { every: '0' } } },
        // The owner lets webhook turns spawn helpers, but never touch files.
        tools: { profiles: { webhook: { deny: ['group:fs', 'group:runtime'] } } },
      },
      core: {},
    });
    const g = gateway;
    llm.setDefault((request: RecordedRequest) => {
      if (isChildRequest(request)) return { text: 'child ran' };
      if (lastUserText(request).includes('[subagent_result]')) return { text: 'the child reported' };
      if (!calledSince(request, 'sessions_spawn')) return { toolCalls: [{ name: 'sessions_spawn', arguments: { task: 'look around' } }] };
      return { text: 'done' };
    });
    const token = readWebhookTokenSync(g.state.paths);
    const port = new URL(g.url.replace('ws:', 'http:')).port;
    const posted = await fetch(`http://127.0.0.1:${port}/hooks/agent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ message: 'from outside', sessionKey: 'hook:ci' }),
    });
    expect(posted.status).toBe(202);
    const child = await waitFor('the child turn', () => llm!.requests.find(isChildRequest));
    expect(toolNamesOf(child)).not.toContain('read');
    expect(toolNamesOf(child)).not.toContain('exec');
    const childSession = g.core.sessions.list().find((session) => session.key.includes(':subagent:'));
    expect(childSession?.actingFor?.principal).toMatch(/^webhook:/);
    // The child's report back runs the parent's next turn for the webhook too, not with a sub-agent's wider tools.
    const report = await waitFor('the parent turn on the report', () => llm!.requests.find((r) => lastUserText(r).includes('[subagent_result]')));
    expect(toolNamesOf(report)).not.toContain('read');
    await waitFor('the report turn to end', () => llm!.requests.length >= 3);
    expect(g.core.sessions.list().find((session) => session.key === 'hook:ci')?.principal).toBe('webhook:agent');
  });
});
