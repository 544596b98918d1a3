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

type SpendEvent = { usd: number; notice?: { kind: string; text: string; sessionKey?: string } };

describe('the runaway guard', () => {
  it('pauses a looping tool turn, refuses the session until the owner resumes it, then answers again', async () => {
    gateway = await startSpendGateway({ runaway: { callsPerMinute: 3 } });
    let call = 0;
    // A model that never stops calling tools.
    gateway.llm.setDefault(() => {
      call += 1;
      return { toolCalls: [{ id: `loop_${call}`, name: 'read', arguments: { path: 'AGENTS.md' } }] };
    });
    const client = await gateway.connect();
    const chat: ChatEventPayload[] = [];
    const spend: SpendEvent[] = [];
    client.on('chat', (payload) => chat.push(payload as ChatEventPayload));
    client.on('spend', (payload) => spend.push(payload as SpendEvent));
    const key = 'agent:main:main';
    await client.request('chat.send', { sessionKey: key, text: 'keep reading' });
    await waitFor(() => chat.some((event) => event.state === 'error'), 'the turn to stop');
    expect(gateway.llm.requests).toHaveLength(3);
    const error = chat.find((event) => event.state === 'error') as Extract<ChatEventPayload, { state: 'error' }>;
    expect(error.message).toContain(`Session ${key} is paused by the runaway guard: 3 model calls in the last minute`);
    expect(error.hint).toContain(`claw budget resume ${key}`);
    await waitFor(() => spend.some((event) => event.notice?.kind === 'paused'), 'the pause notice');
    expect((await client.request('spend.status', {})).paused).toEqual([expect.objectContaining({ sessionKey: key })]);

    // Paused: a new message gets the same answer and costs nothing, an hour later too.
    gateway.clock.advance(60 * 60_000);
    chat.length = 0;
    await client.request('chat.send', { sessionKey: key, text: 'are you there?' });
    await waitFor(() => chat.some((event) => event.state === 'error'), 'the refusal');
    expect(gateway.llm.requests).toHaveLength(3);

    expect(await client.request('spend.resume', { sessionKey: key })).toEqual({ resumed: true });
    expect((await client.request('spend.status', {})).paused).toEqual([]);
    gateway.llm.setDefault({ text: 'Here.' });
    chat.length = 0;
    await client.request('chat.send', { sessionKey: key, text: 'are you there now?' });
    await waitFor(() => chat.some((event) => event.state === 'final'), 'the answer');
    expect(gateway.llm.requests).toHaveLength(4);
  });
});
