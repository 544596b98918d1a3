import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatEventPayload } from '../../source/protocol/index.js';
import { estimateTokens } from '../../source/providers/index.js';
import { startFakeOpenAI } from '../support/fake-openai-server.js';
import type { FakeLlmServer } from '../support/fake-llm-common.js';
import type { TestGateway } from '../support/gateway-harness.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { kindOf, recordEvents, route, smallWindowConfig, startContextGateway, transcript, turn } from './context-gateway.js';

let gateway: TestGateway | undefined;
let llm: FakeLlmServer | undefined;
let state: TempState | undefined;

afterEach(async () => {
  await gateway?.stop();
  await llm?.close();
  state?.cleanup();
  gateway = undefined;
  llm = undefined;
  state = undefined;
});

const SUMMARY = '## Decisions\n- none\n## Open TODOs\n- none\n## Constraints\n- none\n## Pending user asks\n- none\n## Exact identifiers\n- none';

function chatErrors(client: Awaited<ReturnType<TestGateway['connect']>>): ChatEventPayload[] {
  const errors: ChatEventPayload[] = [];
  client.on('chat', (payload) => {
    if (payload.state === 'error') errors.push(payload);
  });
  return errors;
}

describe('overflow recovery and the tool-result guard through a real gateway', () => {
  it('compacts and retries after a context-length error', async () => {
    llm = await startFakeOpenAI();
    let turns = 0;
    llm.setDefault(
      route({
        turn: () => (++turns === 5 ? { error: 'context_length' } : { text: `Answer ${turns}.`, usage: { input: 900, output: 10 } }),
        summary: () => ({ text: SUMMARY }),
        'identifier-retry': () => ({ text: SUMMARY }),
      }),
    );
    state = makeTempState();
    gateway = await startContextGateway(smallWindowConfig(llm, { memoryFlush: { enabled: false } }), state);
    const client = await gateway.connect();
    const events = recordEvents(client);
    const errors = chatErrors(client);
    for (let i = 1; i <= 4; i += 1) await turn(client, events, `Message ${i}: ${'context '.repeat(50)}`);
    await turn(client, events, 'Message 5.');
    expect(errors).toEqual([]);
    expect(turns).toBe(6);
    const entries = await transcript(client);
    expect(entries.filter((entry) => entry.type === 'compaction')).toHaveLength(1);
    const last = entries.at(-1)!;
    expect(last.type === 'message' && last.role === 'assistant' && last.content).toEqual([{ type: 'text', text: 'Answer 6.' }]);
  });

  it('gives up after compacting and shrinking, with an error that suggests /new', async () => {
    llm = await startFakeOpenAI();
    let turns = 0;
    llm.setDefault(
      route({
        turn: () => (++turns <= 2 ? { text: `Answer ${turns}.`, usage: { input: 900, output: 10 } } : { error: 'context_length' }),
        summary: () => ({ text: SUMMARY }),
        'identifier-retry': () => ({ text: SUMMARY }),
      }),
    );
    state = makeTempState();
    gateway = await startContextGateway(smallWindowConfig(llm, { memoryFlush: { enabled: false } }), state);
    const client = await gateway.connect();
    const events = recordEvents(client);
    const errors = chatErrors(client);
    for (let i = 1; i <= 2; i += 1) await turn(client, events, `Message ${i}: ${'context '.repeat(50)}`);
    await turn(client, events, 'Message 3.');
    // The first call and one retry after compacting; with no tool results to cut, it stops there.
    expect(turns).toBe(2 + 2);
    expect(llm.requests.filter((request) => kindOf(request) === 'summary')).toHaveLength(1);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      state: 'error',
      message: expect.stringContaining("no longer fits in the context window of fake/m (128000 tokens as the provider reports it; claw's config says 8000)"),
      hint: expect.stringContaining('/new'),
    });
  });

  it('cuts tool results tighter in what the model sees when compacting was not enough', async () => {
    llm = await startFakeOpenAI();
    state = makeTempState();
    const lines = Array.from({ length: 400 }, (_, i) => `row ${i}: ${'y'.repeat(20)}`).join('\n');
    let step = 0;
    llm.setDefault(
      route({
        turn: () => {
          step += 1;
          if (step === 1) return { toolCalls: [{ id: 'r1', name: 'read', arguments: { path: 'rows.txt' } }], usage: { input: 500, output: 10 } };
          if (step <= 3) return { error: 'context_length' };
          return { text: 'Done.', usage: { input: 3_000, output: 5 } };
        },
        summary: () => ({ text: SUMMARY }),
        'identifier-retry': () => ({ text: SUMMARY }),
      }),
    );
    gateway = await startContextGateway({ ...smallWindowConfig(llm, { memoryFlush: { enabled: false } }), tools: { profile: 'coding' } }, state);
    writeFileSync(join(state.paths.workspace('main'), 'rows.txt'), lines);
    const client = await gateway.connect();
    const events = recordEvents(client);
    const errors = chatErrors(client);
    await turn(client, events, 'Read rows.txt.');
    expect(errors).toEqual([]);
    expect(step).toBe(4);
    const sent = JSON.stringify(llm.requests.filter((request) => kindOf(request) === 'turn').at(-1)!.body.messages);
    expect(sent).toContain('characters of this read result were cut');
    const stored = (await transcript(client)).find((entry) => entry.type === 'message' && entry.role === 'toolResult');
    // The transcript keeps the result as the tool returned it; only the retry's view was cut.
    expect(stored?.type === 'message' && stored.role === 'toolResult' && stored.content).toContain('row 200:');
  });

  it('caps a huge tool result at half the window, keeping head and tail with a marker', async () => {
    llm = await startFakeOpenAI();
    state = makeTempState();
    const lines = Array.from({ length: 6_000 }, (_, i) => `log line ${i}: ${'x'.repeat(20)}`).join('\n');
    let step = 0;
    llm.setDefault(
      route({
        turn: () =>
          ++step === 1
            ? { toolCalls: [{ id: 'r1', name: 'read', arguments: { path: 'big.log' } }], usage: { input: 500, output: 10 } }
            : { text: 'Read it.', usage: { input: 4_600, output: 5 } },
      }),
    );
    gateway = await startContextGateway({ ...smallWindowConfig(llm, { memoryFlush: { enabled: false } }), tools: { profile: 'coding' } }, state);
    writeFileSync(join(state.paths.workspace('main'), 'big.log'), lines);
    const client = await gateway.connect();
    const events = recordEvents(client);
    await turn(client, events, 'Read big.log please.');
    const result = (await transcript(client)).find((entry) => entry.type === 'message' && entry.role === 'toolResult');
    expect(result?.type === 'message' && result.role === 'toolResult').toBe(true);
    if (result?.type !== 'message' || result.role !== 'toolResult') return;
    expect(result.isError).toBe(false);
    expect(estimateTokens(result.content)).toBeLessThanOrEqual(4_000);
    expect(result.content).toContain('log line 0:');
    expect(result.content).toContain('log line 5999:');
    expect(result.content).toMatch(
      /\[… \d+ of \d+ characters of this read result were cut to fit the context window; to see them, call read again with from\/to line numbers/,
    );
    // What the model got on the next call is the capped result too.
    expect(JSON.stringify(llm.requests.at(-1)!.body.messages)).not.toContain('log line 3000:');
  });
});
