import { afterEach, describe, expect, it } from 'vitest';
import type { ChatEventPayload } from '../../source/protocol/index.js';
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

type SpendEvent = { usd: number; notice?: { kind: string; text: string } };

describe('a soft limit', () => {
  it('warns once, in the owner chat and live, when a cap passes its warning share', async () => {
    gateway = await startSpendGateway({ agentDaily: { usd: 0.2 }, warnAt: 0.5 });
    // $0.06 a call at $1 per million input tokens.
    const answer = { text: 'ok', usage: { input: 60_000, output: 0 } };
    gateway.llm.reply(answer, answer, answer);
    const client = await gateway.connect();
    const spend: SpendEvent[] = [];
    const chat: ChatEventPayload[] = [];
    client.on('spend', (payload) => spend.push(payload as SpendEvent));
    client.on('chat', (payload) => chat.push(payload as ChatEventPayload));
    const key = 'agent:main:tui:direct:me';
    for (let turn = 1; turn <= 3; turn += 1) {
      await client.request('chat.send', { sessionKey: key, text: `message ${turn}` });
      await waitFor(() => chat.filter((event) => event.state === 'final' && event.sessionKey === key).length === turn, `reply ${turn}`);
    }
    const warnings = spend.filter((event) => event.notice?.kind === 'warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.notice!.text).toBe(
      'Spend warning: agent main today has used 60% of budgets.agentDaily.usd ($0.12 of $0.20). Work stops at the cap; raise it with `claw budget set budgets.agentDaily.usd 0.40`.',
    );
    // Said in the owner's main chat too, and kept there.
    const main = await client.request('sessions.history', { key: 'agent:main:main' });
    expect(JSON.stringify(main.entries)).toContain('Spend warning: agent main today has used 60%');
    expect(chat.some((event) => event.sessionKey === 'agent:main:main' && event.state === 'final' && event.text.startsWith('Spend warning'))).toBe(true);
  });
});
