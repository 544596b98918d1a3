import { afterEach, describe, expect, it } from 'vitest';
import { configSchema } from '../../../source/config/index.js';
import { SessionRegistry } from '../../../source/sessions/index.js';
import { startTestGateway, type TestGateway } from '../../support/gateway-harness.js';
import { makeTempState, type TempState } from '../../support/temp-state.js';

let gateway: TestGateway | undefined;
let state: TempState | undefined;
afterEach(async () => {
  await gateway?.stop();
  state?.cleanup();
  gateway = undefined;
  state = undefined;
});

/** Transcripts written by an earlier run of the daemon. */
async function seed(state: TempState): Promise<void> {
  const registry = new SessionRegistry({ paths: state.paths, config: configSchema.parse({}) });
  for (const [key, user, assistant] of [
    ['agent:main:main', 'where is the quarterly report?', 'The quarterly report is in ~/docs/q3.pdf.'],
    ['agent:main:telegram:direct:7', '帮我查一下投资目标', '你的投资目标是长期增长。'],
  ] as const) {
    registry.ensure(key);
    const session = await registry.open(key);
    session.append({ type: 'message', role: 'user', content: user }, { type: 'message', role: 'assistant', content: [{ type: 'text', text: assistant }] });
    await session.flush();
  }
  await registry.close();
}

// The search library is loaded by the first sessions.search, not by the gateway's start:
// these are the first searches of this process, sent at once, before any index exists.
describe('sessions.search on a freshly started gateway', () => {
  it('answers the first searches from the transcripts already on disk', async () => {
    state = makeTempState();
    await seed(state);
    gateway = await startTestGateway({ state, core: {} });
    const client = await gateway.connect();
    const [english, chinese, none] = await Promise.all([
      client.request('sessions.search', { query: 'quarterly report' }),
      client.request('sessions.search', { query: '投资目标' }),
      client.request('sessions.search', { query: 'nothing like this' }),
    ]);
    expect(english.hits.map((hit) => [hit.sessionKey, hit.role])).toEqual(
      expect.arrayContaining([
        ['agent:main:main', 'user'],
        ['agent:main:main', 'assistant'],
      ]),
    );
    expect(english.hits).toHaveLength(2);
    expect(chinese.hits.map((hit) => hit.sessionKey)).toEqual(['agent:main:telegram:direct:7', 'agent:main:telegram:direct:7']);
    expect(chinese.hits[0]!.snippet.slice(...chinese.hits[0]!.highlights[0]!)).toBe('投资目标');
    expect(none.hits).toEqual([]);
    expect(english.tookMs).toBeGreaterThanOrEqual(0);
  });
});
