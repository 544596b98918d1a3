import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-openai-server.js';
import type { FakeReply, RecordedRequest } from '../support/fake-llm-common.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import {
  calledSince,
  childReply,
  entriesOf,
  isChildRequest,
  lastUserText,
  messagesOf,
  sinceLastUser,
  textOf,
  userMessages,
  waitFor,
} from './subagents-harness.js';

let gateway: TestGateway | undefined;
let llm: FakeLlmServer | undefined;
afterEach(async () => {
  await gateway?.stop();
  await llm?.close();
  gateway = undefined;
  llm = undefined;
});

const PARENT = 'agent:main:main';

async function start(script: (request: RecordedRequest) => FakeReply, subagents: Record<string, unknown> = {}): Promise<TestGateway> {
  llm = await startFakeOpenAI();
  llm.setDefault(script);
  gateway = await startTestGateway({
    config: {
      models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {} } } } },
      agents: { defaults: { model: 'fake/m', heartbeat: { every: '0' }, subagents } },
      tools: { exec: { sandbox: { mode: 'off' } } },
    },
    core: {},
  });
  return gateway;
}

async function send(gateway: TestGateway, text: string, sessionKey = PARENT): Promise<void> {
  const client = await gateway.connect();
  await client.request('chat.send', { sessionKey, text });
  client.close();
}

const spawnOne = (label: string, extra: Record<string, unknown> = {}): FakeReply => ({
  toolCalls: [{ name: 'sessions_spawn', arguments: { task: `work on ${label}`, label, ...extra } }],
});

describe('controlling children', () => {
  it('cancels the children of an aborted parent turn (cancelWithParent), and the parent still hears of them', async () => {
    const gateway = await start((request) => {
      if (isChildRequest(request)) return { hang: true };
      if (lastUserText(request).includes('[subagent_result]')) return { text: 'heard' };
      if (!calledSince(request, 'sessions_spawn')) return spawnOne('worker');
      return { hang: true };
    });
    await send(gateway, 'start a worker');
    const node = await waitFor('the child to run', () => gateway.core.subagents.list(PARENT).find((n) => n.status === 'running'));
    await waitFor('the parent to hang', () => (llm!.requests.filter((r) => !isChildRequest(r)).length >= 2 ? true : undefined));
    expect(gateway.core.lanes.abort(PARENT).aborted).toBe(true);
    const done = await waitFor('the child to be cancelled', () =>
      gateway.core.subagents.list(PARENT).find((n) => n.key === node.key && n.status === 'cancelled'),
    );
    expect(done.runId).toBe(node.runId);
    await waitFor('the cancelled result to reach the parent', async () =>
      userMessages(await entriesOf(gateway.core, PARENT)).find((m) => m.text.includes('· cancelled ·')),
    );
  });

  it('lets children of an aborted parent finish when cancelWithParent is false', async () => {
    const gateway = await start(
      (request) => {
        if (isChildRequest(request)) return { text: 'finished anyway', delayMs: 60 };
        if (lastUserText(request).includes('[subagent_result]')) return { text: 'heard' };
        if (!calledSince(request, 'sessions_spawn')) return spawnOne('survivor');
        return { hang: true };
      },
      { cancelWithParent: false },
    );
    await send(gateway, 'start a worker');
    await waitFor('the parent to hang', () => (llm!.requests.filter((r) => !isChildRequest(r)).length >= 2 ? true : undefined));
    gateway.core.lanes.abort(PARENT);
    const node = await waitFor('the child to finish', () => gateway.core.subagents.list(PARENT).find((n) => n.endedAt !== undefined));
    expect(node.status).toBe('done');
  });

  it('times a child out after runTimeoutSeconds', async () => {
    const gateway = await start((request) => {
      if (isChildRequest(request)) return { hang: true };
      if (lastUserText(request).includes('[subagent_result]')) return { text: 'it timed out' };
      if (!calledSince(request, 'sessions_spawn')) return spawnOne('slowpoke', { runTimeoutSeconds: 1 });
      return { text: 'started' };
    });
    await send(gateway, 'start a slow worker');
    const node = await waitFor('the timeout', () => gateway.core.subagents.list(PARENT).find((n) => n.status === 'timeout'), 10_000);
    expect(node.endedAt! - node.startedAt).toBeGreaterThanOrEqual(1000);
  });

  it('steers a running child at its next tool boundary, and the subagents tool lists and cancels only its own children', async () => {
    const gateway = await start((request) => {
      if (isChildRequest(request)) {
        const steered = messagesOf(request).some((m) => textOf(m).includes('[message from the parent session'));
        if (steered) return { text: 'took the new direction' };
        return { toolCalls: [{ name: 'read', arguments: { path: 'AGENTS.md' } }], delayMs: 200 };
      }
      const user = lastUserText(request);
      if (user.includes('[subagent_result]')) return { text: 'noted' };
      if (!calledSince(request, 'sessions_spawn')) return spawnOne('steerable');
      if (!calledSince(request, 'subagents')) return { toolCalls: [{ name: 'subagents', arguments: { action: 'list' } }] };
      return { text: 'listed' };
    });
    await send(gateway, 'start and list');
    const node = await waitFor('the child', () => gateway.core.subagents.list(PARENT)[0]);
    const client = await gateway.connect();
    const steered = (await client.request('subagents.steer', { id: node.runId!, message: 'focus on the second half' })) as { status: string };
    expect(steered.status).toBe('steered');
    const finished = await waitFor('the child to finish', () => gateway.core.subagents.list(PARENT).find((n) => n.status === 'done'));
    expect(finished.lastTool).toBe('read');
    const result = await waitFor('the result', async () =>
      userMessages(await entriesOf(gateway.core, PARENT)).find((m) => m.text.includes('took the new direction')),
    );
    expect(result.text).toContain('"steerable" · done');
    const listing = llm!.requests
      .filter((r) => !isChildRequest(r))
      .flatMap((r) => sinceLastUser(r).filter((m) => m.role === 'tool'))
      .map((m) => textOf(m))
      .find((t) => t.includes('children'));
    expect(JSON.parse(listing!).children[0]).toMatchObject({ label: 'steerable', runId: node.runId });
    // Another session may not touch this child, and a finished run-mode child cannot be steered.
    expect(() => gateway.core.subagents.cancel(node.runId!, 'agent:main:other')).toThrow(/is not a child of this session/);
    await expect(client.request('subagents.steer', { id: node.runId!, message: 'again' })).rejects.toThrow(/has finished and was spawned with mode "run"/);
    client.close();
  });

  it("delivers a cron-started parent's child results into the cron session", async () => {
    const gateway = await start((request) => {
      if (isChildRequest(request)) return childReply(request);
      const user = lastUserText(request);
      if (user.includes('[subagent_result]')) return { text: 'digest done' };
      if (user.includes('nightly digest') && !calledSince(request, 'sessions_spawn')) return spawnOne('digest-part');
      return { text: 'spawned the part' };
    });
    const job = await gateway.core.schedule.add({
      name: 'digest',
      schedule: { kind: 'every', every: '1h' },
      payload: { kind: 'agentTurn', message: 'nightly digest' },
    });
    gateway.core.schedule.run(job.id);
    const cronKey = `cron:${job.id}`;
    const result = await waitFor('the result in the cron session', async () =>
      userMessages(await entriesOf(gateway.core, cronKey)).find((m) => m.text.startsWith('[subagent_result]')),
    );
    expect(result.text).toContain('finding about digest-part');
    expect(gateway.core.subagents.list(cronKey)[0]).toMatchObject({ parentKey: cronKey, status: 'done' });
  });

  it("names the child and its parent in a child's exec approval request", async () => {
    const gateway = await start((request) => {
      if (isChildRequest(request)) {
        if (!calledSince(request, 'exec')) return { toolCalls: [{ name: 'exec', arguments: { command: 'curl http://example.invalid/data' } }] };
        return { text: 'could not fetch' };
      }
      if (lastUserText(request).includes('[subagent_result]')) return { text: 'ok' };
      if (!calledSince(request, 'sessions_spawn')) return spawnOne('fetcher');
      return { text: 'started' };
    });
    await send(gateway, 'fetch something');
    const approval = await waitFor('the approval request', () => gateway.core.tools.inbox.list('pending')[0]);
    const node = gateway.core.subagents.list(PARENT)[0]!;
    expect(approval.sessionKey).toBe(node.key);
    expect(approval.reason).toContain(`sub-agent "fetcher" (${node.key}), spawned by ${PARENT}`);
    gateway.core.tools.inbox.resolve(approval.id, 'deny', 'test');
    await waitFor('the child to finish', () => gateway.core.subagents.list(PARENT).find((n) => n.status === 'done'));
  });
});
