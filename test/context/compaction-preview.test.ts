import { afterEach, describe, expect, it } from 'vitest';
import type { CompactionPreview } from '../../source/protocol/index.js';
import { startFakeOpenAI } from '../support/fake-openai-server.js';
import type { FakeLlmServer } from '../support/fake-llm-common.js';
import type { TestGateway } from '../support/gateway-harness.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { KEY, kindOf, recordEvents, route, smallWindowConfig, startContextGateway, turn } from './context-gateway.js';

let gateway: TestGateway | undefined;
let llm: FakeLlmServer | undefined;
let state: TempState | undefined;

afterEach(async () => {
  await gateway?.stop();
  await llm?.close();
  state?.cleanup();
  gateway = llm = state = undefined;
});

const SUMMARY = '## Decisions\n- none\n## Open TODOs\n- none\n## Constraints\n- none\n## Pending user asks\n- none\n## Exact identifiers\n- OPS-77';

async function start(previewSeconds: number) {
  llm = await startFakeOpenAI();
  let turns = 0;
  llm.setDefault(
    route({
      // Past the compaction mark (6,000) after the fourth reply only.
      turn: () => ({ text: `Answer ${++turns}.`, usage: { input: turns === 4 ? 6_500 : turns > 4 ? 2_000 : 1_000 * turns, output: 10 } }),
      summary: () => ({ text: SUMMARY }),
      'identifier-retry': () => ({ text: SUMMARY }),
    }),
  );
  state = makeTempState();
  const config = { ...smallWindowConfig(llm, { memoryFlush: { enabled: false } }), context: { compaction: { previewSeconds } } };
  gateway = await startContextGateway(config, state);
  const client = await gateway.connect();
  const previews: CompactionPreview[] = [];
  client.on('compaction.preview', (preview) => previews.push(preview));
  return { client, events: recordEvents(client), previews };
}

const summaries = () => llm!.requests.filter((request) => kindOf(request) === 'summary').length;

describe('compaction preview', () => {
  it('tells clients what it will summarise; postponed, the turn goes on uncompacted; "now" compacts at once', async () => {
    const { client, events, previews } = await start(60);
    for (let i = 1; i <= 3; i += 1) await turn(client, events, `Message ${i} about ticket OPS-77.`);
    // The fourth reply puts the context past the mark: after it, the preview waits for an answer.
    const fourth = client.request('chat.send', { sessionKey: KEY, text: 'Message 4.' });
    for (let i = 0; i < 200 && previews.length === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    const preview = previews[0]!;
    expect(preview).toMatchObject({ sessionKey: KEY, tokensBefore: expect.any(Number), identifiers: expect.arrayContaining(['OPS-77']) });
    expect(preview.turns).toBeGreaterThan(0);
    expect(preview.tokensAfter).toBeLessThan(preview.tokensBefore);
    const late = await gateway!.connect();
    expect((late.hello?.snapshot as { compactionPreviews?: CompactionPreview[] } | undefined)?.compactionPreviews?.map((p) => p.id)).toEqual([preview.id]);
    await client.request('compaction.decide', { id: preview.id, decision: 'postpone' });
    await events.runEnded((await fourth).runId);
    expect(summaries()).toBe(0);

    // The next turn starts past the mark: previewed again, and "now" compacts before its call.
    const fifth = client.request('chat.send', { sessionKey: KEY, text: 'Message 5.' });
    for (let i = 0; i < 200 && previews.length < 2; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    await client.request('compaction.decide', { id: previews[1]!.id, decision: 'now' });
    await events.runEnded((await fifth).runId);
    expect(summaries()).toBe(1);
    await expect(client.request('compaction.decide', { id: previews[1]!.id, decision: 'now' })).rejects.toThrow(/No compaction preview/);
  }, 60_000);

  it('with no answer it compacts when the preview runs out', async () => {
    const { client, events, previews } = await start(0.3);
    for (let i = 1; i <= 5; i += 1) await turn(client, events, `Message ${i}: ${'details of the plan '.repeat(80)}`);
    expect(previews).toHaveLength(1);
    expect(events.agent.filter((event) => event.stream === 'compaction').map((event) => event.stream === 'compaction' && event.phase)).toEqual([
      'start',
      'end',
    ]);
  }, 60_000);
});
