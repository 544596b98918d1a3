import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '../support/fake-openai-server.js';
import type { FakeLlmServer } from '../support/fake-llm-common.js';
import type { TestGateway } from '../support/gateway-harness.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { kindOf, KEY, recordEvents, route, smallWindowConfig, startContextGateway, turn } from './context-gateway.js';

let gateway: TestGateway | undefined;
let llm: FakeLlmServer | undefined;
let state: TempState | undefined;

afterEach(async () => {
  await gateway?.stop();
  await llm?.close();
  state?.cleanup();
  gateway = llm = state = undefined;
});

describe('pre-flight pressure', () => {
  it('a message that cannot fit ends the turn before any model call, saying what filled the window', async () => {
    llm = await startFakeOpenAI();
    llm.setDefault(route({ turn: () => ({ text: 'never' }) }));
    state = makeTempState();
    gateway = await startContextGateway(smallWindowConfig(llm, { memoryFlush: { enabled: false } }), state);
    const client = await gateway.connect();
    const events = recordEvents(client);
    const errors: string[] = [];
    client.on('chat', (payload) => {
      if (payload.state === 'error') errors.push(payload.message);
    });
    await turn(client, events, `Please read this: ${'lorem ipsum dolor sit amet '.repeat(1_600)}`);
    expect(llm.requests.filter((request) => kindOf(request) === 'turn')).toHaveLength(0);
    expect(errors.at(-1)).toMatch(/would not fit in the 8\.0k-token window even after pruning tool results and compacting: [\d.]+k tokens, mostly new message/);
  });

  it('past the compaction mark, old tool results are pruned first (even with a warm cache) and no summary is needed', async () => {
    llm = await startFakeOpenAI();
    let reads = 0;
    llm.setDefault(
      route({
        turn: (request) => {
          const last = (request.body.messages as Array<{ role: string }>).at(-1)!;
          if (last.role === 'tool') return { text: `Read it.` };
          reads += 1;
          return { text: '', toolCalls: [{ id: `r${reads}`, name: 'read', arguments: { path: `log${reads}.txt` } }] };
        },
        summary: () => ({ text: 'should not be needed' }),
      }),
    );
    state = makeTempState();
    const workspace = state.paths.workspace('main');
    mkdirSync(workspace, { recursive: true });
    for (let i = 1; i <= 3; i += 1) writeFileSync(join(workspace, `log${i}.txt`), `${`entry ${i} `.repeat(2_000)}\n`);
    // A 16k window that three 16,000-character reads overfill unless the oldest is cut.
    const small = smallWindowConfig(llm, { memoryFlush: { enabled: false } });
    const config = {
      ...small,
      models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: { contextWindow: 16_000 } } } } },
      tools: { profile: 'minimal', allow: ['read'] },
      context: { compaction: { previewSeconds: 0 }, pruning: { cacheTtlSeconds: 3_600 } },
    };
    gateway = await startContextGateway(config, state);
    const client = await gateway.connect();
    const events = recordEvents(client);
    for (let i = 1; i <= 3; i += 1) await turn(client, events, `Read log${i}.txt.`);
    expect(llm.requests.filter((request) => kindOf(request) === 'summary')).toHaveLength(0);
    expect(events.agent.filter((event) => event.stream === 'compaction')).toHaveLength(0);
    const last = llm.requests.at(-1)!;
    const results = (last.body.messages as Array<{ role: string; content: unknown }>).filter((m) => m.role === 'tool').map((m) => String(m.content));
    expect(results[0]).toContain('pruned from the context');
    expect(results.at(-1)).not.toContain('pruned from the context');
    const list = await client.request('commands.run', { sessionKey: KEY, text: '/context list' });
    expect(list.reply).toMatch(/pruned\s+\d+ old tool results/);
  });
});
