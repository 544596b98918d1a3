import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '../support/fake-openai-server.js';
import type { FakeLlmServer } from '../support/fake-llm-common.js';
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
  gateway = llm = state = undefined;
});

const SECTIONS = '## Decisions\n- migrate orders\n## Open TODOs\n- none\n## Constraints\n- none\n## Pending user asks\n- none\n## Exact identifiers\n';

describe('/compact review, undo and redo', () => {
  it('review shows the summarised turns beside the summary with a dropped identifier marked missing; after a restart, redo with instructions and undo still work', async () => {
    llm = await startFakeOpenAI();
    let summaries = 0;
    let failRedo = false;
    llm.setDefault(
      route({
        turn: (request) => ({ text: `Noted: ${lastUserText(request).slice(0, 30)}`, usage: { input: 900, output: 10 } }),
        // The first summary keeps the ticket but drops the schema path; a redo keeps both.
        summary: (request) => {
          summaries += 1;
          if (failRedo) return { text: '' };
          return {
            text: lastUserText(request).includes('keep the SQL schema path') ? `${SECTIONS}- OPS-5150\n- migrations/0042_orders.sql` : `${SECTIONS}- OPS-5150`,
          };
        },
        'identifier-retry': () => ({ text: `${SECTIONS}- OPS-5150` }),
      }),
    );
    state = makeTempState();
    const config = smallWindowConfig(llm, { memoryFlush: { enabled: false } });
    gateway = await startContextGateway(config, state);
    let client = await gateway.connect();
    const events = recordEvents(client);
    await turn(client, events, 'Ticket OPS-5150: the schema is in migrations/0042_orders.sql, please keep it in mind.');
    for (let i = 2; i <= 6; i += 1) await turn(client, events, `Filler message ${i} ${'words '.repeat(200)}`);
    const compacted = await client.request('commands.run', { sessionKey: KEY, text: '/compact' });
    expect(compacted.reply).toMatch(/Compacted \d+ older messages/);

    const review = await client.request('commands.run', { sessionKey: KEY, text: '/compact review' });
    expect(review.reply).toMatch(/Compaction of .* \(in force\): \d+ messages → summary/);
    expect(review.reply).toMatch(/Summarised\s+│ Summary/);
    expect(review.reply).toContain('User: Ticket OPS-5150');
    // The summary kept the ticket but dropped the path, which claw appended verbatim: the review says so.
    expect(review.reply).toMatch(/✓\s+OPS-5150/);
    expect(review.reply).toMatch(/✗ dropped by the summariser, appended verbatim\s+migrations\/0042_orders\.sql/);
    const json = await client.request('commands.run', { sessionKey: KEY, text: '/compact review json' });
    const data = json.data as { identifiers: Array<{ value: string; kept: string }> };
    expect(data.identifiers.find((identifier) => identifier.value === 'migrations/0042_orders.sql')?.kept).toBe('appended');

    // A restart changes nothing: review, redo and undo read the transcript.
    await gateway.stop();
    gateway = await startContextGateway(config, state);
    client = await gateway.connect();
    const redo = await client.request('commands.run', { sessionKey: KEY, text: '/compact redo keep the SQL schema path verbatim' });
    expect(redo.reply).toMatch(/Compacted \d+ older messages following "keep the SQL schema path verbatim"/);
    const redoRequest = llm.requests.filter((request) => kindOf(request) === 'summary').at(-1)!;
    expect(lastUserText(redoRequest)).toContain('keep the SQL schema path verbatim');
    const after = await client.request('commands.run', { sessionKey: KEY, text: '/compact review' });
    expect(after.reply).toMatch(/✓\s+migrations\/0042_orders\.sql/);
    expect(after.reply).not.toContain('✗');

    // A redo that fails puts the summary in force back.
    failRedo = true;
    await expect(client.request('commands.run', { sessionKey: KEY, text: '/compact redo' })).rejects.toThrow(/previous summary is still in force/);
    const entries = await transcript(client);
    const inForce = entries.filter((entry) => entry.type === 'compaction').at(-1);
    expect(inForce?.type === 'compaction' && inForce.summary).toContain('migrations/0042_orders.sql');
    failRedo = false;

    const undone = await client.request('commands.run', { sessionKey: KEY, text: '/compact undo' });
    expect(undone.reply).toMatch(/Undid the compaction/);
    expect((await client.request('commands.run', { sessionKey: KEY, text: '/compact review' })).reply).toMatch(/\(undone\)/);
    expect(summaries).toBeGreaterThanOrEqual(3);
  }, 60_000);

  it('review on a session never compacted says so', async () => {
    llm = await startFakeOpenAI();
    llm.setDefault(route({ turn: () => ({ text: 'ok' }) }));
    state = makeTempState();
    gateway = await startContextGateway(smallWindowConfig(llm), state);
    const client = await gateway.connect();
    await turn(client, recordEvents(client), 'hi');
    await expect(client.request('commands.run', { sessionKey: KEY, text: '/compact review' })).rejects.toThrow(/has not been compacted yet/);
  });
});
