import { afterEach, describe, expect, it } from 'vitest';
import { configSchema } from '../../../source/config/index.js';
import { SessionRegistry } from '../../../source/sessions/index.js';
import { sessionsSearchHandler, type SessionsSearchHandler } from '../../../source/sessions/search/index.js';
import { makeTempState, type TempState } from '../../support/temp-state.js';

const config = configSchema.parse({ agents: { list: [{ id: 'main' }, { id: 'ops' }] } });
let state: TempState | undefined;
let registry: SessionRegistry | undefined;
let search: SessionsSearchHandler | undefined;

afterEach(async () => {
  search?.close();
  await registry?.close();
  state?.cleanup();
  search = undefined;
  registry = undefined;
  state = undefined;
});

async function say(key: string, user: string, assistant?: string): Promise<void> {
  registry!.ensure(key);
  const session = await registry!.open(key);
  session.append({ type: 'message', role: 'user', content: user });
  if (assistant) session.append({ type: 'message', role: 'assistant', content: [{ type: 'text', text: assistant }] });
  await session.flush();
}

function open(): SessionsSearchHandler {
  state ??= makeTempState();
  registry ??= new SessionRegistry({ paths: state.paths, config });
  search = sessionsSearchHandler({ sessions: registry });
  return search;
}

describe('sessions.search over real transcripts', () => {
  it('finds English and Chinese words in every session, with a snippet whose marks cover the match', async () => {
    const find = open();
    await say('agent:main:main', 'please summarise the quarterly report', 'The quarterly report shows growth.');
    await say('agent:main:telegram:direct:42', '我的投资目标是长期增长', '好的，长期投资目标已记下。');
    await say('cron:daily', 'unrelated message about cats');

    const english = await find({ query: 'quarterly REPORT' });
    expect(english.hits.map((h) => [h.sessionKey, h.role])).toEqual(
      expect.arrayContaining([
        ['agent:main:main', 'user'],
        ['agent:main:main', 'assistant'],
      ]),
    );
    expect(english.hits).toHaveLength(2);
    for (const hit of english.hits) {
      const marked = hit.highlights.map(([a, b]) => hit.snippet.slice(a, b).toLowerCase());
      expect(marked).toEqual(expect.arrayContaining(['quarterly', 'report']));
    }

    const chinese = await find({ query: '投资目标' });
    expect(chinese.hits.map((h) => h.sessionKey)).toEqual(['agent:main:telegram:direct:42', 'agent:main:telegram:direct:42']);
    // Two characters are below the trigram size: they still match, through LIKE.
    const short = await find({ query: '投资' });
    expect(short.hits).toHaveLength(2);
    expect(short.hits[0]!.snippet.slice(...short.hits[0]!.highlights[0]!)).toBe('投资');
    expect((await find({ query: 'nothing-like-this' })).hits).toEqual([]);
  });

  it('picks up messages appended after the first search, and forgets a transcript replaced by /new', async () => {
    const find = open();
    await say('agent:main:main', 'first draft of the plan');
    expect((await find({ query: 'plan' })).hits).toHaveLength(1);
    await say('agent:main:main', 'second version of the plan');
    const both = await find({ query: 'plan' });
    expect(both.hits.map((h) => h.snippet).sort()).toEqual(['first draft of the plan', 'second version of the plan']);
    registry!.reset('agent:main:main');
    await say('agent:main:main', 'a fresh start, no plans yet');
    const after = await find({ query: 'plan' });
    expect(after.hits.map((h) => h.snippet)).toEqual(['a fresh start, no plans yet']);
    const current = registry!.get('agent:main:main')!.entry.sessionId;
    expect(after.hits[0]!.sessionId).toBe(current);
  });

  it('rebuilds from the transcripts after a restart, and matches words by prefix but CJK only as typed', async () => {
    const find = open();
    await say('agent:main:main', 'persistent needle one');
    expect((await find({ query: 'needle' })).hits).toHaveLength(1);
    find.close();
    search = undefined;
    await say('agent:main:main', 'persistent needle two', '投资和目标是两件事');
    const again = open();
    expect((await again({ query: 'needle' })).hits).toHaveLength(2);
    expect((await again({ query: 'pers need' })).hits).toHaveLength(2);
    // Each character is in the reply, but not the word.
    expect((await again({ query: '投目' })).hits).toEqual([]);
    expect((await again({ query: '目标' })).hits).toHaveLength(1);
  });

  it('answers searches sent together before the index exists, each with every match', async () => {
    const find = open();
    await say('agent:main:main', 'lazy index alpha', 'lazy index beta');
    const answers = await Promise.all([find({ query: 'lazy' }), find({ query: 'beta' }), find({ query: 'lazy index' })]);
    expect(answers.map((a) => a.hits.length)).toEqual([2, 1, 2]);
    expect(answers[1]!.hits[0]!.role).toBe('assistant');
  });

  it('filters by agent and honours the limit', async () => {
    const find = open();
    for (let i = 0; i < 5; i++) await say('agent:main:main', `repeated phrase number ${i}`);
    await say('agent:ops:main', 'repeated phrase from ops');
    expect((await find({ query: 'repeated phrase', agentId: 'ops' })).hits.map((h) => h.sessionKey)).toEqual(['agent:ops:main']);
    expect((await find({ query: 'repeated phrase', limit: 3 })).hits).toHaveLength(3);
  });
});
