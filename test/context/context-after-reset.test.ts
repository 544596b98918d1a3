import { afterEach, describe, expect, it } from 'vitest';
import type { ContextPayload } from '../../source/protocol/index.js';
import { startFakeOpenAI } from '../support/fake-openai-server.js';
import type { FakeLlmServer } from '../support/fake-llm-common.js';
import type { TestGateway } from '../support/gateway-harness.js';
import { KEY, recordEvents, smallWindowConfig, startContextGateway, turn } from './context-gateway.js';

let gateway: TestGateway | undefined;
let llm: FakeLlmServer | undefined;

afterEach(async () => {
  await gateway?.stop();
  await llm?.close();
  gateway = undefined;
  llm = undefined;
});

const historyOf = (report: ContextPayload): number =>
  report.parts.filter((part) => part.name.startsWith('history')).reduce((sum, part) => sum + part.tokens, 0);

describe('context report of a session, for every client', () => {
  it('is replaced at once by /new (event and snapshot), not kept until the next turn', async () => {
    llm = await startFakeOpenAI();
    llm.setDefault({ text: `A long answer: ${'words and more words '.repeat(200)}`, usage: { input: 3_000, output: 900 } });
    gateway = await startContextGateway(smallWindowConfig(llm));
    const client = await gateway.connect();
    const events = recordEvents(client);
    await turn(client, events, 'Tell me everything.');
    const before = events.context.filter((c) => c.sessionKey === KEY).at(-1)!;
    expect(historyOf(before)).toBeGreaterThan(500);

    const seen = events.context.length;
    await client.request('commands.run', { sessionKey: KEY, text: '/new' });
    await expect.poll(() => events.context.slice(seen).find((c) => c.sessionKey === KEY), { timeout: 10_000 }).toBeDefined();
    const after = events.context.slice(seen).find((c) => c.sessionKey === KEY)!;
    expect(after.used).toBeLessThan(before.used);
    expect(historyOf(after)).toBeLessThan(100);
    expect(llm.requests).toHaveLength(1);

    const late = await gateway.connect();
    const snapshot = late.hello?.snapshot.context?.find((c) => c.sessionKey === KEY);
    expect(snapshot?.used).toBe(after.used);
  });

  it('is published by /context, so a client attached before any turn gets real numbers', async () => {
    llm = await startFakeOpenAI();
    gateway = await startContextGateway(smallWindowConfig(llm));
    const first = await gateway.connect();
    expect(first.hello?.snapshot.context ?? []).toEqual([]);
    const events = recordEvents(first);
    const { data } = await first.request('commands.run', { sessionKey: KEY, text: '/context json' });
    expect((data as { event: ContextPayload }).event).toMatchObject({ sessionKey: KEY, window: 8_000 });
    await expect.poll(() => events.context.length, { timeout: 10_000 }).toBe(1);
    expect(events.context[0]!.used).toBeGreaterThan(0);
    const second = await gateway.connect();
    expect(second.hello?.snapshot.context?.[0]).toMatchObject({ sessionKey: KEY, used: events.context[0]!.used });
    expect(llm.requests).toHaveLength(0);
  });
});
