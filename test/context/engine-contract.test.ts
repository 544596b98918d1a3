import { afterEach, describe, expect, it } from 'vitest';
import type { ContextEngineFactory } from '../../source/agent/index.js';
import { estimateTokens } from '../../source/providers/index.js';
import { startFakeOpenAI } from '../support/fake-openai-server.js';
import type { FakeLlmServer, RecordedRequest } from '../support/fake-llm-common.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { KEY, kindOf, recordEvents, route, smallWindowConfig, transcript, turn } from './context-gateway.js';
import { words } from './history-builders.js';

let gateway: TestGateway | undefined;
let llm: FakeLlmServer | undefined;
let state: TempState | undefined;

afterEach(async () => {
  await gateway?.stop();
  await llm?.close();
  state?.cleanup();
  gateway = llm = state = undefined;
});

const SUMMARY = '## Decisions\n- none\n## Open TODOs\n- none\n## Constraints\n- none\n## Pending user asks\n- none\n## Exact identifiers\n- none';

async function start(engine: string, contextEngines?: Record<string, ContextEngineFactory>) {
  llm = await startFakeOpenAI();
  let n = 0;
  llm.setDefault(
    route({
      turn: () => ({ text: `Answer ${++n}.` }),
      flush: () => ({ text: 'NO_REPLY' }),
      summary: () => ({ text: SUMMARY }),
      'identifier-retry': () => ({ text: SUMMARY }),
    }),
  );
  state = makeTempState();
  const config = smallWindowConfig(llm);
  (config.agents as { defaults: Record<string, unknown> }).defaults.contextEngine = engine;
  gateway = await startTestGateway({ state, config, core: { env: process.env, ...(contextEngines ? { contextEngines } : {}) } });
  const client = await gateway.connect();
  return { client, events: recordEvents(client) };
}

function turnRequests(): RecordedRequest[] {
  return llm!.requests.filter((request) => kindOf(request) === 'turn');
}

/** The same behaviour, whichever engine keeps the window. */
describe.each(['default', 'recall'])('context engine contract: %s', (engine) => {
  it('answers, publishes the context after every turn, and keeps every request inside the window over a long conversation', async () => {
    const { client, events } = await start(engine);
    for (let i = 1; i <= 14; i += 1) await turn(client, events, `Message ${i}: ${words(250, `m${i}w`)}`);
    expect(events.context.filter((c) => c.sessionKey === KEY).length).toBeGreaterThanOrEqual(14);
    for (const request of turnRequests()) expect(estimateTokens(JSON.stringify(request.body.messages))).toBeLessThan(8_000);
    // The newest message always goes out verbatim.
    const last = JSON.stringify(turnRequests().at(-1)!.body.messages);
    expect(last).toContain(`Message 14: ${words(250, 'm14w')}`);
    // The transcript keeps everything, in order.
    const users = (await transcript(client)).flatMap((entry) =>
      entry.type === 'message' && entry.role === 'user' && entry.content.startsWith('Message ') ? [entry.content.split(':')[0]] : [],
    );
    expect(users).toEqual(Array.from({ length: 14 }, (_, i) => `Message ${i + 1}`));
  }, 60_000);

  it('/context list works and says what the engine did', async () => {
    const { client, events } = await start(engine);
    for (let i = 1; i <= 3; i += 1) await turn(client, events, `Note ${i}`);
    const list = await client.request('commands.run', { sessionKey: KEY, text: '/context list' });
    expect(list.reply).toMatch(/tool schemas/);
    if (engine === 'recall') expect(list.reply).toMatch(/recall\s+sends the last \d+ messages/);
  }, 60_000);
});

describe('the recall engine', () => {
  it('brings back a fact from an early turn when the current message asks about it, and /compact says it does not summarise', async () => {
    const { client, events } = await start('recall');
    await turn(client, events, 'Remember: the staging database password rotation ticket is OPS-5150 and the schema lives in migrations/0042_orders.sql');
    for (let i = 1; i <= 14; i += 1) await turn(client, events, `Unrelated chatter ${i}: ${words(250, `c${i}w`)}`);
    // The early turn no longer fits in the tail…
    expect(JSON.stringify(turnRequests().at(-1)!.body.messages)).not.toContain('OPS-5150');
    await turn(client, events, 'Which ticket was the staging database password rotation?');
    const sent = JSON.stringify(turnRequests().at(-1)!.body.messages);
    expect(sent).toContain('Earlier in this conversation: exchanges recalled');
    expect(sent).toContain('OPS-5150');
    const list = await client.request('commands.run', { sessionKey: KEY, text: '/context list' });
    expect(list.reply).toMatch(/recalls turns 1 \([^)]*(staging|database|password|rotation)/);
    const compact = await client.request('commands.run', { sessionKey: KEY, text: '/compact' }).catch((error: Error) => ({ reply: error.message }));
    expect(compact.reply).toMatch(/never summarises/);
  }, 60_000);
});

describe('an engine that throws', () => {
  it('is quarantined: the turn is answered by the default engine, the owner gets a notice, and later turns skip it', async () => {
    const broken: ContextEngineFactory = () => {
      return {
        info: { id: 'broken', ownsCompaction: false },
        window: 8_000,
        ingest: (content) => content,
        assemble: () => {
          throw new Error('index corrupted');
        },
        beforeModelCall: async () => {},
        recoverOverflow: async () => false,
        compact: async () => {
          throw new Error('not supported');
        },
        afterTurn: async () => {},
        report: async () => {
          throw new Error('index corrupted');
        },
      };
    };
    const { client, events } = await start('broken', { broken });
    const finals: string[] = [];
    client.on('chat', (payload) => {
      if (payload.state === 'final') finals.push(payload.text);
    });
    await turn(client, events, 'hello');
    await turn(client, events, 'again');
    expect(finals).toEqual(['Answer 1.', 'Answer 2.']);
    const notices = events.agent.filter((event) => event.stream === 'notice');
    expect(notices).toHaveLength(1);
    expect(notices[0]!.stream === 'notice' && notices[0]!.text).toMatch(/Context engine "broken" failed \(index corrupted\).*default engine took over/);
  }, 60_000);
});
