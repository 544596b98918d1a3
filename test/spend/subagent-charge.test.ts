import { afterEach, describe, expect, it } from 'vitest';
import type { ChatEventPayload } from '../../source/protocol/index.js';
import type { FakeReply, RecordedRequest } from '../support/fake-llm-common.js';
import { calledSince, childReply, isChildRequest, lastUserText } from '../subagents/subagents-harness.js';
import { startSpendGateway, type SpendGateway } from './spend-harness.js';

let gateway: SpendGateway | undefined;
afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
});

async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 600; i += 1) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const PARENT = 'agent:main:main';

describe("a subagent's spend", () => {
  it("counts against its parent's session cap: the parent cannot spend past it through a child", async () => {
    gateway = await startSpendGateway({ session: { maxTokens: 40_000 } });
    gateway.llm.setDefault((request: RecordedRequest): FakeReply => {
      // The child's one call is expensive; the parent's are small.
      if (isChildRequest(request)) return { ...childReply(request), usage: { input: 50_000, output: 10 }, delayMs: 200 };
      if (lastUserText(request).includes('[subagent_result]')) return { text: 'Summary.', usage: { input: 500, output: 5 } };
      if (!calledSince(request, 'sessions_spawn'))
        return { toolCalls: [{ name: 'sessions_spawn', arguments: { task: 'look into alpha', label: 'alpha' } }], usage: { input: 500, output: 5 } };
      if (!calledSince(request, 'sessions_yield'))
        return { toolCalls: [{ name: 'sessions_yield', arguments: { wait: 'all' } }], usage: { input: 500, output: 5 } };
      return { text: 'On it.', usage: { input: 500, output: 5 } };
    });
    const client = await gateway.connect();
    const chat: ChatEventPayload[] = [];
    client.on('chat', (payload) => chat.push(payload as ChatEventPayload));
    await client.request('chat.send', { sessionKey: PARENT, text: 'research alpha' });
    await waitFor(() => chat.some((event) => event.sessionKey === PARENT && event.state === 'error'), "the parent's refusal");
    const error = chat.find((event) => event.sessionKey === PARENT && event.state === 'error') as Extract<ChatEventPayload, { state: 'error' }>;
    // The child's 50,010 tokens were charged to the parent's session as well as its own.
    expect(error.message).toMatch(/^Budget reached: session agent:main:main has spent 5\dk tokens of 40k tokens \(budgets\.session\.maxTokens\)/);
    expect(error.failure).toBe('budget');
    const status = await client.request('spend.status', {});
    expect(status.agents).toEqual([expect.objectContaining({ agentId: 'main' })]);
    expect(gateway.llm.requests.filter((request) => isChildRequest(request))).toHaveLength(1);
    // No parent call was made after the child's result came back.
    expect(gateway.llm.requests.some((request) => !isChildRequest(request) && lastUserText(request).includes('[subagent_result]'))).toBe(false);
  });
});
