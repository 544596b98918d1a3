import { afterEach, describe, expect, it } from 'vitest';
import type { ToolResult } from '../../source/tools/index.js';
import { describeProgress } from '../../source/tools/mcp/mcp-tool.js';
import { selectChat } from '../../source/tui/store/selectors.js';
import { initialState } from '../../source/tui/store/state.js';
import { TuiStore } from '../../source/tui/store/store.js';
import { stdioServerEntry, waitFor } from '../support/mcp-servers.js';
import { KEYS, openApp, PAUSE, type AppHarness } from './support/app-harness.js';

let harness: AppHarness | undefined;
afterEach(async () => {
  await harness?.stop();
  harness = undefined;
});

/** The TUI on a real gateway (real core) with the SDK stdio test server connected. */
async function withMcp(core: Record<string, unknown> = {}): Promise<AppHarness> {
  harness = await openApp([], { cols: 110, rows: 34 }, { config: { mcpServers: { local: stdioServerEntry({ trust: 'allow' }) } }, core });
  const h = harness;
  await waitFor(() => h.gateway.core.mcp.status()[0]?.state === 'ready', 'local ready');
  await expect.poll(() => h.frame()).toContain('● open');
  return h;
}

/** Calls the server's `ask` tool, which asks the operator for a name (required, text) and an age (whole number). */
function ask(h: AppHarness): Promise<ToolResult> {
  return h.gateway.core.tools.registry.invoke(
    'mcp__local__ask',
    {},
    {
      agentId: 'main',
      sessionKey: 'agent:main:main',
      sessionType: 'main',
      workspaceDir: h.gateway.state.dir,
      signal: new AbortController().signal,
      onUpdate: () => undefined,
      approvals: h.gateway.core.tools.inbox.gate('main', 'agent:main:main'),
    },
  );
}

const draft = (h: AppHarness) => h.store.getState().ui.editor.text;

describe('MCP in the TUI', { timeout: 90_000 }, () => {
  it('shows a server question as a form, keeps keys typed as it appears in the draft, and answers it from the keyboard', async () => {
    const h = await withMcp();
    h.type('half a thou');
    await expect.poll(() => draft(h)).toBe('half a thou');
    const result = ask(h);
    await expect.poll(() => h.flat()).toContain('MCP server "local" asks');
    expect(h.flat()).toContain('Who are you?');
    expect(h.flat()).toContain('› Name*: ▏ (text)');
    // Typing that was under way when the form appeared goes to the draft, not the form.
    for (const ch of 'ght') h.type(ch);
    await expect.poll(() => draft(h)).toBe('half a thought');
    await expect.poll(() => h.flat()).toContain('3 keys went to your draft, not the form');

    h.advance(PAUSE);
    h.type('A');
    for (const ch of 'da') h.type(ch);
    await expect.poll(() => h.flat()).toContain('› Name*: Ada▏');
    h.type(KEYS.enter);
    await expect.poll(() => h.flat()).toContain('› age: ▏ (a whole number)');
    h.type('x');
    h.type(KEYS.enter);
    await expect.poll(() => h.flat()).toContain('age needs a whole number, not "x".');
    h.type(KEYS.backspace);
    h.type('36');
    h.type(KEYS.enter);
    const answered = await result;
    expect(JSON.parse(answered.content.replace(/^[\s\S]*?\n/, '').replace(/\n<\/untrusted[\s\S]*$/, ''))).toEqual({
      action: 'accept',
      content: { name: 'Ada', age: 36 },
    });
    await expect.poll(() => h.flat()).not.toContain('MCP server "local" asks');
    expect(draft(h)).toBe('half a thought');
  });

  it('declines with Esc, and the gateway declines a question nobody answers in time', async () => {
    const h = await withMcp({ mcp: { elicitationTimeoutMs: 1500 } });
    const first = ask(h);
    await expect.poll(() => h.flat()).toContain('Who are you?');
    h.advance(PAUSE);
    h.type(KEYS.esc);
    expect((await first).content).toContain('{"action":"decline"}');
    await expect.poll(() => h.flat()).not.toContain('Who are you?');

    const second = ask(h);
    await expect.poll(() => h.flat()).toContain('Who are you?');
    expect((await second).content).toContain('{"action":"decline"}');
    await expect.poll(() => h.flat()).not.toContain('Who are you?');
  });

  it('completes @server:uri mentions from the listed resources and prompt arguments from the server', async () => {
    const h = await withMcp();
    await expect.poll(() => h.store.getState().mcp?.resources.length ?? 0, { timeout: 10_000 }).toBeGreaterThan(0);
    h.type('read @loc');
    await expect.poll(() => h.flat(), { timeout: 10_000 }).toContain('@local:test://readme');
    h.type(KEYS.tab);
    await expect.poll(() => draft(h)).toBe('read @local:test://readme ');

    h.type(KEYS.ctrlU);
    h.type('/mcp__local__gr');
    await expect.poll(() => h.flat(), { timeout: 10_000 }).toContain('/mcp__local__greet <name>');
    h.type(KEYS.tab);
    await expect.poll(() => draft(h)).toBe('/mcp__local__greet ');
    h.type('A');
    await expect.poll(() => h.flat(), { timeout: 10_000 }).toContain('Alan');
    expect(h.flat()).toContain('Ada');
    expect(h.flat()).not.toContain('Grace');
    h.type(KEYS.tab);
    await expect.poll(() => draft(h)).toBe('/mcp__local__greet Ada ');
  });
});

describe('MCP progress in the TUI', () => {
  it('shows the latest notifications/progress on the running tool line until the call ends', () => {
    const store = new TuiStore(initialState(), { frameMs: 1 });
    const key = 'agent:main:main';
    const tool = { runId: 'r1', sessionKey: key, stream: 'tool' as const, toolCallId: 't1', name: 'mcp__local__steps' };
    store.applyEvent('agent', { runId: 'r1', sessionKey: key, stream: 'lifecycle', phase: 'start' });
    store.applyEvent('agent', { ...tool, phase: 'start', args: { steps: 3 } });
    store.applyEvent('agent', { ...tool, phase: 'update', output: describeProgress({ progress: 2, total: 3, message: 'step 2' }) });
    expect(selectChat(store.getState()).items.at(-1)).toMatchObject({ kind: 'tool', status: 'running', output: 'progress 2/3: step 2' });
    expect(store.getState().progress[key]?.tool).toBe('mcp__local__steps');
    store.applyEvent('agent', { ...tool, phase: 'end', output: 'done after 3 steps' });
    expect(selectChat(store.getState()).items.at(-1)).toMatchObject({ status: 'done', output: 'done after 3 steps' });
    store.dispose();
  });
});
