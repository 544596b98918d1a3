import { afterEach, describe, expect, it } from 'vitest';
import { assembleContext } from '../../source/agent/index.js';
import type { TranscriptEntry } from '../../source/protocol/index.js';
import { startFakeOpenAI } from '../support/fake-openai-server.js';
import type { FakeLlmServer, RecordedRequest } from '../support/fake-llm-common.js';
import type { TestGateway } from '../support/gateway-harness.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { KEY, kindOf, lastUserText, recordEvents, route, smallWindowConfig, startContextGateway, transcript, turn } from './context-gateway.js';

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

const IDENTIFIERS = ['9f8e7d6c', 'db1.prod.internal:5432', 'https://wiki.acme.io/runbooks/deploy', 'OPS-4711'];
const SUMMARY = '## Decisions\n- deploy approved\n## Open TODOs\n- none\n## Constraints\n- none\n## Pending user asks\n- none\n## Exact identifiers\n- none';

/** Reported context size per normal turn, in order: crosses the flush mark (5,000) at turn 5 and the compaction mark (6,000) at turn 6. */
const turnUsage = [1_000, 2_000, 3_000, 4_000, 5_000, 6_000, 1_500, 1_800];

function requestsOf(kind: string): RecordedRequest[] {
  return llm!.requests.filter((request) => kindOf(request) === kind);
}

describe('compaction through a real gateway', () => {
  it('flushes memory once past the flush mark, then compacts past the compaction mark, keeping identifiers', async () => {
    llm = await startFakeOpenAI();
    let turns = 0;
    llm.setDefault(
      route({
        turn: () => ({ text: `Answer ${turns + 1}.`, usage: { input: turnUsage[turns++] ?? 1_000, output: 10 } }),
        flush: () => ({ text: 'NO_REPLY', usage: { input: 5_050, output: 2 } }),
        summary: () => ({ text: SUMMARY, usage: { input: 500, output: 50 } }),
        'identifier-retry': () => ({ text: SUMMARY, usage: { input: 500, output: 50 } }),
      }),
    );
    state = makeTempState();
    gateway = await startContextGateway(smallWindowConfig(llm), state);
    const client = await gateway.connect();
    const events = recordEvents(client);
    const finals: string[] = [];
    client.on('chat', (payload) => {
      if (payload.state === 'final') finals.push(payload.text);
    });

    await turn(client, events, `Deploy build ${IDENTIFIERS[0]} to ${IDENTIFIERS[1]}; runbook ${IDENTIFIERS[2]}, ticket ${IDENTIFIERS[3]}.`);
    for (let i = 2; i <= 4; i += 1) await turn(client, events, `Message number ${i}.`);
    expect(requestsOf('flush')).toHaveLength(0);

    await turn(client, events, 'Message number 5.');
    expect(requestsOf('flush')).toHaveLength(1);
    expect(requestsOf('summary')).toHaveLength(0);
    // The flush is silent: only the five real answers reached the client.
    expect(finals).toEqual(['Answer 1.', 'Answer 2.', 'Answer 3.', 'Answer 4.', 'Answer 5.']);
    expect(lastUserText(requestsOf('flush')[0]!)).toMatch(/memory\/\d{4}-\d{2}-\d{2}\.md/);

    await turn(client, events, 'Message number 6.');
    expect(requestsOf('summary')).toHaveLength(1);
    expect(requestsOf('identifier-retry')).toHaveLength(1);
    expect(requestsOf('flush')).toHaveLength(1);
    const compactionEvents = events.agent.filter((e) => e.stream === 'compaction');
    expect(compactionEvents.map((e) => e.phase)).toEqual(['start', 'end']);
    const end = compactionEvents[1]!;
    expect(end.stream === 'compaction' && end.tokensBefore).toBe(6_010);
    expect(end.stream === 'compaction' && end.tokensAfter! < end.tokensBefore).toBe(true);

    const entries = await transcript(client);
    const compaction = entries.find((entry) => entry.type === 'compaction');
    expect(compaction?.type === 'compaction' && compaction.summary).toBeTruthy();
    for (const identifier of IDENTIFIERS) expect(compaction?.type === 'compaction' && compaction.summary).toContain(identifier);
    expect(entries.filter((entry) => entry.type === 'custom' && entry.customType === 'memory_flush')).toHaveLength(1);
    const context = events.context.at(-1)!;
    expect(context.compactions).toHaveLength(1);
    expect(context.used).toBeLessThan(context.thresholds.compact);
    expect(context.thresholds).toEqual({ flush: 5_000, compact: 6_000 });

    // The next turn sees the summary and the kept tail, not the first message.
    await turn(client, events, 'Message number 7.');
    const next = llm.requests.filter((request) => kindOf(request) === 'turn').at(-1)!;
    const sent = JSON.stringify(next.body.messages);
    expect(sent).toContain('[Summary of the earlier conversation]');
    expect(sent).not.toContain('Deploy build');
    for (const identifier of IDENTIFIERS) expect(sent).toContain(identifier);
    expect(requestsOf('flush')).toHaveLength(1);
    const { session } = await client.request('sessions.get', { key: KEY });
    expect(session.compactionCount).toBe(1);
    const status = await client.request('commands.run', { sessionKey: KEY, text: '/status' });
    expect(status.reply).toMatch(/compact\s+1, last \d{4}-/);
  });

  it('a summariser that answers too long every time ends after the attempt limit and reports it', async () => {
    llm = await startFakeOpenAI();
    const huge = 'word '.repeat(10_000);
    let turns = 0;
    llm.setDefault(
      route({
        turn: () => ({ text: `Answer ${++turns}.`, usage: { input: turns >= 3 ? 7_000 : 500, output: 10 } }),
        summary: () => ({ text: huge, chunkSize: 50_000 }),
        'identifier-retry': () => ({ text: huge, chunkSize: 50_000 }),
      }),
    );
    state = makeTempState();
    gateway = await startContextGateway(smallWindowConfig(llm, { maxAttempts: 2, memoryFlush: { enabled: false } }), state);
    const client = await gateway.connect();
    const events = recordEvents(client);
    for (let i = 1; i <= 3; i += 1) await turn(client, events, `Message ${i} about /srv/app/config.yaml.`);
    const summaries = llm.requests.filter((request) => kindOf(request) !== 'turn');
    // Two attempts, each one summary call plus at most one identifier retry.
    expect(summaries.length).toBeGreaterThan(0);
    expect(summaries.length).toBeLessThanOrEqual(4);
    const compaction = events.agent.filter((e) => e.stream === 'compaction');
    expect(compaction.map((e) => e.phase)).toEqual(['start', 'error']);
    expect(compaction[1]!.stream === 'compaction' && compaction[1]!.detail).toMatch(/did not make the context smaller after 2 attempts/);
    expect((await transcript(client)).some((entry) => entry.type === 'compaction')).toBe(false);
    // The turn itself was answered; the next one still works.
    await turn(client, events, 'Message 4.');
    expect(turns).toBe(4);
  });

  it('/compact and /compact undo, and the compacted transcript reloads identically after a restart', async () => {
    llm = await startFakeOpenAI();
    llm.setDefault(
      route({
        turn: (request) => ({ text: `Reply to: ${lastUserText(request).slice(0, 40)}`, usage: { input: 800, output: 10 } }),
        summary: () => ({ text: `${SUMMARY}\n${IDENTIFIERS.join(' ')}` }),
      }),
    );
    state = makeTempState();
    const config = smallWindowConfig(llm);
    gateway = await startContextGateway(config, state);
    let client = await gateway.connect();
    const events = recordEvents(client);
    await turn(client, events, `Deploy build ${IDENTIFIERS[0]} to ${IDENTIFIERS[1]}; runbook ${IDENTIFIERS[2]}, ticket ${IDENTIFIERS[3]}.`);
    for (let i = 2; i <= 6; i += 1) await turn(client, events, `Message number ${i}: ${'detail '.repeat(60)}`);
    const before = assembleContext(await transcript(client)).messages.map((message) => message.id);

    const compacted = await client.request('commands.run', { sessionKey: KEY, text: '/compact keep the deploy facts' });
    expect(compacted.reply).toMatch(/^Compacted \d+ older messages: .* → .* tokens/);
    const summaryRequest = llm.requests.find((request) => kindOf(request) === 'summary')!;
    expect(lastUserText(summaryRequest)).toContain('keep the deploy facts');
    const compactedEntries = await transcript(client);
    const view = assembleContext(compactedEntries);
    expect(view.compaction).toBeDefined();
    expect(view.messages.length).toBeLessThan(before.length);
    expect(events.context.at(-1)!.compactions).toHaveLength(1);

    const list = await client.request('commands.run', { sessionKey: KEY, text: '/context list' });
    expect(list.reply).toMatch(/context\s+[\d.,k]+ \/ 8\.0k tokens/);
    expect(list.reply).toMatch(/AGENTS\.md\s+[\d,]+ → [\d,]+/);
    expect(list.reply).toMatch(/tool schemas\s+\d+ tools/);
    expect(list.reply).toMatch(/compactions\s+1, last/);
    const detail = await client.request('commands.run', { sessionKey: KEY, text: '/context detail' });
    expect(detail.reply).toContain('history:summary');
    const json = await client.request('commands.run', { sessionKey: KEY, text: '/context json' });
    expect(JSON.parse(json.reply).account.window).toBe(8_000);

    // Restart on the same state dir: the same entries and the same view come back.
    await gateway.stop();
    gateway = await startContextGateway(config, state);
    client = await gateway.connect();
    const reloaded = await transcript(client);
    expect(reloaded).toEqual(compactedEntries);
    expect(assembleContext(reloaded).messages).toEqual(view.messages);

    const undone = await client.request('commands.run', { sessionKey: KEY, text: '/compact undo' });
    expect(undone.reply).toMatch(/^Undid the compaction/);
    const restored: TranscriptEntry[] = await transcript(client);
    expect(assembleContext(restored).messages.map((message) => message.id)).toEqual(before);
    expect(restored.filter((entry) => entry.type === 'compaction')).toHaveLength(1);
    await expect(client.request('commands.run', { sessionKey: KEY, text: '/compact undo' })).rejects.toThrow(/no compaction to undo/);
    const { session } = await client.request('sessions.get', { key: KEY });
    expect(session.compactionCount).toBe(0);
  });
});
