import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayClient } from '../../source/client/index.js';
import { App } from '../../source/tui/components/App.js';
import { sameButDraft } from '../../source/tui/components/memo.js';
import { initialState, type TuiState } from '../../source/tui/store/state.js';
import { TuiStore } from '../../source/tui/store/store.js';
import { TuiController } from '../../source/tui/controller.js';
import { KEYS } from './support/app-harness.js';

const key = 'agent:main:main';
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function ui(state: TuiState, change: Partial<TuiState['ui']>): TuiState {
  return { ...state, ui: { ...state.ui, ...change } };
}

describe('what a keystroke redraws', () => {
  it('counts the draft, the key time and the completion row as draft-only, and every other change as a change', () => {
    const base = initialState();
    const typed = ui(base, { editor: { ...base.ui.editor, text: 'a', cursor: 1 }, lastKeyAt: 5, completionIndex: 2 });
    expect(sameButDraft(base, typed)).toBe(true);
    expect(sameButDraft(base, ui(base, { scroll: 3 }))).toBe(false);
    expect(sameButDraft(base, ui(base, { focus: 'sessions' }))).toBe(false);
    expect(sameButDraft(base, ui(base, { editor: { ...base.ui.editor, search: { query: '' } } }))).toBe(false);
    expect(sameButDraft(base, { ...base, chats: { [key]: { items: [], hasMore: false, running: true } } })).toBe(false);
    expect(sameButDraft(base, { ...base, modelMissing: true })).toBe(false);
  });

  it('typing over a long history keeps the panes around the input live: new messages, scroll and history search still show', async () => {
    // No gateway: the controller is never attached, so everything on screen comes from the store.
    const store = new TuiStore(initialState(), { frameMs: 1 });
    for (let i = 0; i < 2_000; i++) store.applyEvent('chat', { runId: `r${i}`, sessionKey: key, state: 'final', text: `message ${i}` });
    const controller = new TuiController(new GatewayClient({ url: 'ws://127.0.0.1:9', token: 'unused' }), store);
    const app = render(<App store={store} controller={controller} exit={() => undefined} size={{ cols: 100, rows: 30 }} />);
    cleanups.push(() => {
      app.unmount();
      store.dispose();
    });
    while (app.stdin.listenerCount('readable') === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await expect.poll(() => app.lastFrame()).toContain('message 1999');

    app.stdin.write('hello');
    await expect.poll(() => app.lastFrame()).toContain('❯ hello');
    store.applyEvent('chat', { runId: 'late', sessionKey: key, state: 'final', text: 'a reply that came while typing' });
    await expect.poll(() => app.lastFrame()).toContain('a reply that came while typing');
    app.stdin.write(' world');
    await expect.poll(() => app.lastFrame()).toContain('❯ hello world');
    expect(app.lastFrame()).toContain('a reply that came while typing');

    app.stdin.write('\x1b[5~');
    await expect.poll(() => app.lastFrame()).toContain('↑ scrolled');
    app.stdin.write('!');
    await expect.poll(() => app.lastFrame()).toContain('❯ hello world!');
    expect(app.lastFrame()).toContain('↑ scrolled');
    expect(app.lastFrame()).not.toContain('a reply that came while typing');

    app.stdin.write(KEYS.ctrlR);
    await expect.poll(() => app.lastFrame()).toContain('Ctrl+R older · Enter take · Esc cancel');
  });

  it('an idle screen is not redrawn by the clock; a running turn is, every second', async () => {
    const store = new TuiStore(initialState(), { frameMs: 1 });
    store.applyEvent('chat', { runId: 'r0', sessionKey: key, state: 'final', text: 'settled' });
    const controller = new TuiController(new GatewayClient({ url: 'ws://127.0.0.1:9', token: 'unused' }), store);
    const app = render(<App store={store} controller={controller} exit={() => undefined} size={{ cols: 100, rows: 30 }} />);
    cleanups.push(() => {
      app.unmount();
      store.dispose();
    });
    await expect.poll(() => app.lastFrame()).toContain('settled');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const idle = app.frames.length;
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(app.frames.length).toBe(idle);

    store.applyEvent('chat', { runId: 'r1', sessionKey: key, state: 'delta', delta: 'thinking out loud' });
    await expect.poll(() => app.lastFrame()).toContain('thinking out loud');
    const running = app.frames.length;
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(app.frames.length).toBeGreaterThanOrEqual(running + 2);
  });
});
