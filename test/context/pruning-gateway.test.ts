import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../source/config/index.js';
import { startFakeOpenAI } from '../support/fake-openai-server.js';
import type { FakeLlmServer, RecordedRequest } from '../support/fake-llm-common.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { KEY, recordEvents, transcript, turn } from './context-gateway.js';

let gateway: TestGateway | undefined;
let llm: FakeLlmServer | undefined;
let state: TempState | undefined;

afterEach(async () => {
  await gateway?.stop();
  await llm?.close();
  state?.cleanup();
  gateway = llm = state = undefined;
});

/** The tool results a request sent, oldest first. */
function sentResults(request: RecordedRequest): string[] {
  return (request.body.messages as Array<{ role: string; content: unknown }>).filter((m) => m.role === 'tool').map((m) => String(m.content));
}

describe('tool-result pruning in a running gateway', () => {
  it('sends old long results cut, keeps them whole in the transcript and in .tool-results/, and waits for the cache window', async () => {
    llm = await startFakeOpenAI();
    state = makeTempState();
    const workspace = state.paths.workspace('main');
    mkdirSync(workspace, { recursive: true });
    for (let i = 1; i <= 5; i += 1) writeFileSync(join(workspace, `log${i}.txt`), `${`log ${i} line\n`.repeat(800)}END-${i}\n`);
    let reads = 0;
    llm.setDefault((request) => {
      const last = (request.body.messages as Array<{ role: string }>).at(-1)!;
      if (last.role === 'tool') return { text: `Read log ${reads}.` };
      reads += 1;
      return { text: '', toolCalls: [{ id: `read${reads}`, name: 'read', arguments: { path: `log${reads}.txt` } }] };
    });
    const clock = { now: Date.now() };
    gateway = await startTestGateway({
      state,
      core: { env: process.env, clock: { ...systemClock, now: () => clock.now } },
      config: {
        models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: { contextWindow: 200_000 } } } } },
        agents: { defaults: { model: 'fake/m' } },
        context: { pruning: { cacheTtlSeconds: 300 } },
      },
    });
    const client = await gateway.connect();
    const events = recordEvents(client);
    for (let i = 1; i <= 4; i += 1) await turn(client, events, `Read log${i}.txt please.`);
    // Inside the cache window nothing new is pruned: every result goes out whole.
    const warm = llm.requests.at(-1)!;
    expect(sentResults(warm).every((content) => !content.includes('pruned from the context'))).toBe(true);

    clock.now += 6 * 60_000;
    const before = readFileSync(
      join(state.paths.root, 'agents', 'main', 'sessions', (await client.request('sessions.get', { key: KEY })).session.sessionId + '.jsonl'),
      'utf8',
    );
    await turn(client, events, 'Read log5.txt please.');
    const cold = llm.requests.filter((request) => (request.body.messages as Array<{ role: string }>).at(-1)!.role === 'user').at(-1)!;
    const results = sentResults(cold);
    // Results older than the last three assistant turns are cut to head and tail; the recent ones are whole.
    expect(results[0]).toMatch(/characters of this read result pruned from the context; read \.tool-results\/[\w.-]+\.txt for the whole result/);
    expect(results[0]).toContain('END-1');
    expect(results.at(-1)).not.toContain('pruned from the context');
    const stored = /read (\.tool-results\/[\w.-]+\.txt)/.exec(results[0]!)![1]!;
    expect(readFileSync(join(workspace, stored), 'utf8')).toContain('log 1 line\n'.repeat(800));

    // The transcript is only appended to: what was on disk before is byte for byte the start of it now.
    const entries = await transcript(client);
    expect(
      entries
        .filter((entry) => entry.type === 'message' && entry.role === 'toolResult')
        .every((entry) => !JSON.stringify(entry).includes('pruned from the context')),
    ).toBe(true);
    const after = readFileSync(
      join(state.paths.root, 'agents', 'main', 'sessions', (await client.request('sessions.get', { key: KEY })).session.sessionId + '.jsonl'),
      'utf8',
    );
    expect(after.startsWith(before)).toBe(true);

    const list = await client.request('commands.run', { sessionKey: KEY, text: '/context list' });
    expect(list.reply).toMatch(/pruned\s+\d+ old tool results \(\d+ cut to head and tail, \d+ cleared; read\): ~[\d,]+ tokens saved/);
    expect(existsSync(join(workspace, '.tool-results'))).toBe(true);
  }, 60_000);
});
