import { afterEach, describe, expect, it } from 'vitest';
import { echoRunner } from '../../source/queue/index.js';
import { type AppHarness, KEYS, openApp } from './support/app-harness.js';

let app: AppHarness | undefined;
afterEach(async () => {
  await app?.stop();
  app = undefined;
});

// A configured model keeps the "no model" banner off the chat pane; the echo runner never calls it.
const models = { providers: { fake: { api: 'openai', baseUrl: 'http://127.0.0.1:9/v1', models: { m: {} } } } };

describe('/agent in the TUI', () => {
  it("completes agent ids from the gateway's commands.list, switches to that agent's main session and shows the agent in the header", async () => {
    app = await openApp(
      [],
      { cols: 110, rows: 30 },
      {
        config: { models, agents: { defaults: { model: 'fake/m' }, list: [{ id: 'main' }, { id: 'work', name: 'Work' }] } },
        core: { runner: echoRunner },
      },
    );
    const h = app;
    await expect.poll(() => h.frame()).toContain('● open');
    expect(h.frame()).toContain('agent main · agent:main:main');

    h.type('/agent w');
    // The popup lists the ids the gateway's /agent accepts (from commands.list).
    await expect.poll(() => h.flat()).toMatch(/ work ─/);
    h.type(KEYS.tab);
    await expect.poll(() => h.frame()).toContain('❯ /agent work');
    h.type(KEYS.enter);
    await expect.poll(() => h.store.getState().currentKey).toBe('agent:work:main');
    await expect.poll(() => h.frame()).toContain('agent work · agent:work:main');
    await expect.poll(() => h.flat()).toContain('Now talking to agent work (Work) in agent:work:main.');
    expect(h.gateway.core.sessions.registry.get('agent:work:main')?.agentId).toBe('work');

    // Messages now go to the other agent's session.
    h.type('hello work\r');
    await expect.poll(() => h.flat()).toContain('echo: hello work');
    const transcript = (await h.gateway.core.sessions.registry.open('agent:work:main')).entries();
    expect(transcript.some((e) => e.type === 'message' && e.role === 'user' && e.content === 'hello work')).toBe(true);
  });

  it('says which agents exist when the id is unknown, and stays where it is', async () => {
    app = await openApp(
      [],
      { cols: 110, rows: 30 },
      { config: { models, agents: { defaults: { model: 'fake/m' }, list: [{ id: 'main' }, { id: 'work' }] } }, core: { runner: echoRunner } },
    );
    const h = app;
    await expect.poll(() => h.frame()).toContain('● open');
    h.type('/agent nope\r');
    await expect.poll(() => h.flat()).toContain('No agent "nope". Agents: main, work');
    expect(h.store.getState().currentKey).toBe('agent:main:main');
  });
});
