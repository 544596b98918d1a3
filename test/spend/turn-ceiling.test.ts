import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRecord, ChatEventPayload } from '../../source/protocol/index.js';
import { startSpendGateway, type SpendGateway } from './spend-harness.js';

let gateway: SpendGateway | undefined;
afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
});

async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i += 1) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Each call reports 50,000 input tokens: the third call of a turn no longer fits a 102,000-token ceiling. */
async function loopingTurn(): Promise<{ gateway: SpendGateway; approvals: ApprovalRecord[]; chat: ChatEventPayload[] }> {
  gateway = await startSpendGateway({ turn: { maxTokens: 102_000, maxUsd: null } });
  const step = (id: string) => ({ toolCalls: [{ id, name: 'read', arguments: { path: 'AGENTS.md' } }], usage: { input: 50_000, output: 10 } });
  gateway.llm.reply(step('c1'), step('c2'), step('c3'), { text: 'All read.', usage: { input: 50_000, output: 5 } });
  const client = await gateway.connect();
  const approvals: ApprovalRecord[] = [];
  const chat: ChatEventPayload[] = [];
  client.on('approval.requested', (payload) => approvals.push((payload as { approval: ApprovalRecord }).approval));
  client.on('chat', (payload) => chat.push(payload as ChatEventPayload));
  await client.request('chat.send', { sessionKey: 'agent:main:main', text: 'read it again and again' });
  await waitFor(() => approvals.length === 1, 'the spend approval');
  return { gateway, approvals, chat };
}

describe('the per-turn ceiling of an interactive turn', () => {
  it('asks the owner before going past it and proceeds only when approved', async () => {
    const { gateway, approvals, chat } = await loopingTurn();
    const [asked] = approvals;
    expect(asked).toMatchObject({ kind: 'spend', sessionKey: 'agent:main:main' });
    expect(asked!.command).toContain('budgets.turn.maxTokens');
    // Nothing more is spent while the owner has not answered.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(gateway.llm.requests).toHaveLength(2);
    const operator = await gateway.connect({ clientName: 'owner' });
    await operator.request('approvals.resolve', { id: asked!.id, decision: 'once' });
    await waitFor(() => chat.some((event) => event.state === 'final'), 'the final reply');
    expect(chat.find((event) => event.state === 'final')).toMatchObject({ text: 'All read.' });
    expect(gateway.llm.requests).toHaveLength(4);
    const status = await operator.request('spend.status', {});
    expect(status.interactive.tokens).toBe(4 * 50_000 + 3 * 10 + 5);
  });

  it('a denied ceiling ends the turn with what was spent and how to raise it; no further call is made', async () => {
    const { gateway, approvals, chat } = await loopingTurn();
    const operator = await gateway.connect({ clientName: 'owner' });
    await operator.request('approvals.resolve', { id: approvals[0]!.id, decision: 'deny' });
    await waitFor(() => chat.some((event) => event.state === 'error'), 'the turn error');
    const error = chat.find((event) => event.state === 'error') as Extract<ChatEventPayload, { state: 'error' }>;
    expect(error.message).toMatch(/this turn has spent 100k tokens of 102k tokens \(budgets\.turn\.maxTokens\)/);
    expect(error.hint).toContain('claw budget set budgets.turn.maxTokens 204000');
    expect(error.failure).toBe('budget');
    expect(gateway.llm.requests).toHaveLength(2);
  });
});
