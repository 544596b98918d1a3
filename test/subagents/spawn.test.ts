import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-openai-server.js';
import type { FakeReply, RecordedRequest } from '../support/fake-llm-common.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import {
  assistantTexts,
  calledSince,
  childReply,
  entriesOf,
  isChildRequest,
  lastUserText,
  messagesOf,
  sinceLastUser,
  textOf,
  toolNamesOf,
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

async function start(subagents: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Promise<{ gateway: TestGateway; llm: FakeLlmServer }> {
  llm = await startFakeOpenAI();
  gateway = await startTestGateway({
    config: {
      models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {} } } } },
      agents: { defaults: { model: 'fake/m', heartbeat: { every: '0' }, subagents } },
      ...extra,
    },
    core: {},
  });
  return { gateway, llm };
}

function spawnCalls(labels: readonly string[]): FakeReply {
  return { toolCalls: labels.map((label) => ({ name: 'sessions_spawn', arguments: { task: `look into ${label}`, label } })) };
}

/** The parent spawns the labels, yields for all, and answers the collected results by citing them. */
function parentScript(labels: readonly string[]): (request: RecordedRequest) => FakeReply {
  return (request) => {
    // Children answer slower than the parent spawns and yields, so the yield holds all three (a child that ended before the yield is announced alone).
    if (isChildRequest(request)) return { ...childReply(request), delayMs: 300 };
    const user = lastUserText(request);
    if (user.includes('[subagent_result]')) {
      const findings = [...user.matchAll(/finding about (\w+)/g)].map((m) => m[1]);
      return { text: `Summary: ${findings.join(', ')}` };
    }
    if (!calledSince(request, 'sessions_spawn')) return spawnCalls(labels);
    if (!calledSince(request, 'sessions_yield')) return { toolCalls: [{ name: 'sessions_yield', arguments: { wait: 'all' } }] };
    return { text: 'Three helpers are on it.' };
  };
}

async function send(gateway: TestGateway, text: string): Promise<void> {
  const client = await gateway.connect();
  await client.request('chat.send', { sessionKey: PARENT, text });
  client.close();
}

describe('sessions_spawn and the completion inbox', () => {
  it('collects three children into one parent turn whose answer cites them all', async () => {
    const { gateway, llm } = await start();
    llm.setDefault(parentScript(['alpha', 'beta', 'gamma']));
    await send(gateway, 'research three things');
    const entries = await waitFor('the summary', async () => {
      const all = await entriesOf(gateway.core, PARENT);
      return assistantTexts(all).some((t) => t.startsWith('Summary:')) ? all : undefined;
    });
    const summary = assistantTexts(entries).find((t) => t.startsWith('Summary:'))!;
    expect(summary.split(': ')[1]!.split(', ').sort()).toEqual(['alpha', 'beta', 'gamma']);
    const results = userMessages(entries).filter((m) => m.text.startsWith('[subagent_result]'));
    expect(results).toHaveLength(1);
    expect(results[0]!.text).toContain('3 child runs reported');
    // The spawn returned at once with the child's run and session.
    const spawnResults = [
      ...new Set(
        llm.requests
          .filter((r) => !isChildRequest(r))
          .flatMap((r) => sinceLastUser(r).filter((m) => m.role === 'tool'))
          .map((m) => textOf(m))
          .filter((t) => t.includes('accepted')),
      ),
    ];
    expect(spawnResults).toHaveLength(3);
    for (const text of spawnResults)
      expect(JSON.parse(text)).toMatchObject({ status: 'accepted', childSessionKey: expect.stringMatching(/^agent:main:subagent:/) });
    await gateway.core.subagents.settled();
    const tree = gateway.core.snapshot().subagents!.nodes;
    expect(tree.map((n) => [n.label, n.status, n.delivery, n.parentKey, n.depth]).sort()).toEqual([
      ['alpha', 'done', 'delivered', PARENT, 1],
      ['beta', 'done', 'delivered', PARENT, 1],
      ['gamma', 'done', 'delivered', PARENT, 1],
    ]);
    // Each child session names its parent, which the sessions tools and session_status count.
    for (const node of tree) expect(gateway.core.sessions.registry.get(node.key)?.entry).toMatchObject({ spawnedBy: PARENT, spawnDepth: 1 });
    // Children ran on the subagent lane with the minimal prompt and without the denied tools.
    const child = llm.requests.find(isChildRequest)!;
    const tools = toolNamesOf(child);
    for (const denied of ['sessions_spawn', 'sessions_yield', 'subagents', 'sessions_send', 'message', 'cron']) expect(tools).not.toContain(denied);
    expect(toolNamesOf(llm.requests[0]!)).toContain('sessions_spawn');
    const system = textOf(messagesOf(child)[0]);
    expect(system).not.toContain('HEARTBEAT.md');
  });

  it('announces each child on its own when the parent does not yield, and ANNOUNCE_SKIP suppresses one', async () => {
    const { gateway, llm } = await start();
    llm.setDefault((request) => {
      if (isChildRequest(request)) return lastUserText(request).includes('"quiet"') ? { text: 'ANNOUNCE_SKIP' } : childReply(request);
      const user = lastUserText(request);
      if (user.includes('[subagent_result]')) return { text: 'Noted.' };
      if (!calledSince(request, 'sessions_spawn')) return spawnCalls(['loud', 'quiet']);
      return { text: 'Started.' };
    });
    await send(gateway, 'two tasks');
    await waitFor('both children to finish', () => {
      const nodes = gateway.core.subagents.list(PARENT);
      return nodes.length === 2 && nodes.every((n) => n.delivery === 'delivered' || n.delivery === 'skipped') ? nodes : undefined;
    });
    await gateway.core.subagents.settled();
    const nodes = gateway.core.subagents.list(PARENT);
    expect(nodes.find((n) => n.label === 'quiet')!.delivery).toBe('skipped');
    await waitFor('the parent to hear the loud one', async () =>
      userMessages(await entriesOf(gateway.core, PARENT)).some((m) => m.text.includes('finding about loud')) ? true : undefined,
    );
    const announced = userMessages(await entriesOf(gateway.core, PARENT)).filter((m) => m.text.startsWith('[subagent_result]'));
    expect(announced).toHaveLength(1);
    expect(announced[0]!.messageId).toBe(`subagent_result:${nodes.find((n) => n.label === 'loud')!.runId}`);
    expect(announced[0]!.text).not.toContain('ANNOUNCE_SKIP');
  });

  it('refuses a spawn over maxChildrenPerAgent, naming the limit', async () => {
    const { gateway, llm } = await start({ maxChildrenPerAgent: 2 });
    llm.setDefault((request) => {
      // Children stay busy so the parent's three spawns overlap.
      if (isChildRequest(request)) return { text: 'slow finding', delayMs: 150 };
      if (lastUserText(request).includes('[subagent_result]')) return { text: 'ok' };
      if (!calledSince(request, 'sessions_spawn')) return spawnCalls(['one', 'two', 'three']);
      return { text: 'Started what I could.' };
    });
    await send(gateway, 'three tasks, limit two');
    const refusal = await waitFor('the third spawn result', () =>
      llm!.requests
        .filter((r) => !isChildRequest(r))
        .flatMap((r) => sinceLastUser(r).filter((m) => m.role === 'tool'))
        .map((m) => textOf(m))
        .find((t) => t.includes('maxChildrenPerAgent')),
    );
    expect(refusal).toContain('maxChildrenPerAgent (2) reached');
    expect(refusal).toContain('agents.defaults.subagents.maxChildrenPerAgent');
    await waitFor('two children to finish', () => (gateway.core.subagents.list(PARENT).filter((n) => n.status === 'done').length === 2 ? true : undefined));
    expect(gateway.core.subagents.list(PARENT)).toHaveLength(2);
  });

  it('lets a child spawn up to maxSpawnDepth, where the spawn tool is gone and a direct spawn is refused', async () => {
    const { gateway, llm } = await start({ maxSpawnDepth: 2 });
    llm.setDefault((request) => {
      const user = lastUserText(request);
      if (user.includes('[subagent_result]')) return { text: 'relayed' };
      if (isChildRequest(request)) {
        // The depth-1 child spawns one grandchild, then answers; the grandchild just answers.
        if (toolNamesOf(request).includes('sessions_spawn') && !calledSince(request, 'sessions_spawn'))
          return { toolCalls: [{ name: 'sessions_spawn', arguments: { task: 'go deeper', label: 'grandchild' } }] };
        return childReply(request);
      }
      if (!calledSince(request, 'sessions_spawn')) return spawnCalls(['child']);
      return { text: 'ok' };
    });
    await send(gateway, 'nest');
    const grandchild = await waitFor('the grandchild', () => gateway.core.subagents.list().find((n) => n.label === 'grandchild' && n.status === 'done'));
    const child = gateway.core.subagents.list().find((n) => n.label === 'child')!;
    expect(grandchild).toMatchObject({ depth: 2, parentKey: child.key });
    // The tree of the parent holds its grandchild too.
    expect(gateway.core.subagents.list(PARENT).map((n) => n.label)).toEqual(['child', 'grandchild']);
    const leafRequest = llm.requests.find((r) => isChildRequest(r) && lastUserText(r).includes('"grandchild"'))!;
    expect(toolNamesOf(leafRequest)).not.toContain('sessions_spawn');
    expect(toolNamesOf(llm.requests.find((r) => isChildRequest(r) && lastUserText(r).includes('"child"'))!)).toContain('sessions_spawn');
    await expect(gateway.core.subagents.spawn({ parentKey: grandchild.key, task: 'deeper still' })).rejects.toThrow(
      /maxSpawnDepth \(2\) reached: this session is itself a child at depth 2/,
    );
  });
});
