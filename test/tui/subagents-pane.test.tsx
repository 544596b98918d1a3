import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../source/tui/components/App.js';
import { TuiController } from '../../source/tui/controller.js';
import { initialState } from '../../source/tui/store/state.js';
import { TuiStore } from '../../source/tui/store/store.js';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-openai-server.js';
import { calledSince, isChildRequest, lastUserText, messagesOf, textOf } from '../subagents/subagents-harness.js';
import { KEYS, openApp, type AppHarness } from './support/app-harness.js';

let h: AppHarness | undefined;
let llm: FakeLlmServer | undefined;
afterEach(async () => {
  await h?.stop();
  await llm?.close();
  h = undefined;
  llm = undefined;
});

const PARENT = 'agent:main:main';

async function open(): Promise<AppHarness> {
  llm = await startFakeOpenAI();
  llm.setDefault((request) => {
    if (isChildRequest(request)) {
      const task = lastUserText(request);
      const steered = messagesOf(request).some((m) => textOf(m).includes('[message from the parent session'));
      if (steered) return { text: 'steered result' };
      if (task.includes('"slow"') || messagesOf(request).some((m) => textOf(m).includes('"slow"'))) return { hang: true };
      return { toolCalls: [{ name: 'read', arguments: { path: 'AGENTS.md' } }], delayMs: 400 };
    }
    if (lastUserText(request).includes('[subagent_result]')) return { text: 'heard back' };
    if (!calledSince(request, 'sessions_spawn'))
      return {
        toolCalls: ['slow', 'steady'].map((label) => ({ name: 'sessions_spawn', arguments: { task: `work on ${label}`, label } })),
      };
    return { text: 'two helpers started' };
  });
  h = await openApp(
    [],
    { cols: 120, rows: 32 },
    {
      config: {
        models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {} } } } },
        agents: { defaults: { model: 'fake/m', heartbeat: { every: '0' } } },
      },
      core: {},
    },
  );
  return h;
}

async function focusPane(h: AppHarness): Promise<void> {
  for (let i = 0; i < 6 && h.store.getState().ui.focus !== 'subagents'; i += 1) {
    const before = h.store.getState().ui.focus;
    h.type(KEYS.tab);
    await expect.poll(() => h.store.getState().ui.focus).not.toBe(before);
  }
  expect(h.store.getState().ui.focus).toBe('subagents');
}

describe('the sub-agent pane on a live gateway', () => {
  it('opens on spawn, updates live, steers, cancels, shows a child transcript read-only, and survives a reattach', async () => {
    const h = await open();
    h.type('split the work');
    h.type(KEYS.enter);
    // The pane opens by itself with both children.
    await expect.poll(() => h.flat(), { timeout: 10_000 }).toMatch(/Sub-agents.*▶ slow/);
    await expect.poll(() => h.flat(), { timeout: 10_000 }).toContain('steady');

    await focusPane(h);
    h.type(KEYS.down);
    await expect.poll(() => h.store.getState().ui.subagentCursor).toBe(1);
    h.type('s');
    await expect.poll(() => h.flat()).toContain('steer "steady" ❯');
    h.type('change course');
    h.type(KEYS.enter);
    await expect.poll(() => h.flat(), { timeout: 10_000 }).toMatch(/✓ steady \d+s · ✓ delivered/);

    await focusPane(h);
    h.type(KEYS.up);
    await expect.poll(() => h.store.getState().ui.subagentCursor).toBe(0);
    h.type('c');
    await expect.poll(() => h.flat(), { timeout: 10_000 }).toMatch(/■ slow/);

    // Enter opens the child's transcript read-only; Esc goes back.
    h.type('\r');
    const child = h.gateway.core.subagents.list(PARENT).find((n) => n.label === 'slow')!;
    await expect.poll(() => h.store.getState().currentKey).toBe(child.key);
    await expect.poll(() => h.flat()).toContain('(read-only · Esc back) ❯');
    await expect.poll(() => h.flat()).toContain('work on slow');
    h.type('hello');
    h.type(KEYS.enter);
    await expect.poll(() => h.flat()).toContain('This sub-agent transcript is read-only');
    h.type(KEYS.esc);
    await expect.poll(() => h.store.getState().currentKey).toBe(PARENT);

    // A second TUI attaching now shows the tree from the hello snapshot alone.
    const client = await h.gateway.connect({ clientName: 'tui · second' });
    const store = new TuiStore(initialState(), { frameMs: 5, now: () => Date.now() });
    const controller = new TuiController(client, store);
    controller.attach();
    const app = render(<App store={store} controller={controller} exit={() => undefined} size={{ cols: 120, rows: 32 }} />);
    try {
      await expect
        .poll(() =>
          store
            .getState()
            .subagents.map((n) => n.label)
            .sort(),
        )
        .toEqual(['slow', 'steady']);
      h.gateway.core.subagents.list(PARENT).forEach((n) => expect(n.delivery).toBe('delivered'));
    } finally {
      app.unmount();
      controller.detach();
      store.dispose();
    }
  });
});
