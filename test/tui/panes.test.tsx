import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { ChatPane, chatPaneProps } from '../../source/tui/components/ChatPane.js';
import { ContextPane } from '../../source/tui/components/ContextPane.js';
import { Footer } from '../../source/tui/components/Footer.js';
import { Header } from '../../source/tui/components/Header.js';
import { LanesPane } from '../../source/tui/components/LanesPane.js';
import { SessionsPane } from '../../source/tui/components/SessionsPane.js';
import { SubagentsPane } from '../../source/tui/components/SubagentsPane.js';
import { ApprovalPrompt } from '../../source/tui/components/ApprovalPrompt.js';
import { CompactionStrip } from '../../source/tui/components/CompactionStrip.js';
import { Popup } from '../../source/tui/components/Popup.js';
import { initialState, type TuiState } from '../../source/tui/store/state.js';
import { TuiStore } from '../../source/tui/store/store.js';
import { approvalLines } from '../../source/tui/text/approval-lines.js';
import { approvalFixture, sessionFixture } from './support/fixtures.js';

const key = 'agent:main:main';
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function show(node: React.ReactElement): string {
  const instance = render(node);
  cleanups.push(instance.unmount);
  return instance.lastFrame() ?? '';
}

function withState(change: Partial<TuiState>): TuiState {
  return { ...initialState(), ...change };
}

describe('panes from store fixtures', () => {
  it('header shows host, version, connection, latency and agent', () => {
    const state = withState({ conn: { state: 'open', host: 'devbox', version: '0.1.0', latencyMs: 3, methods: [] } });
    const frame = show(<Header state={state} width={100} />);
    expect(frame).toContain('devbox v0.1.0');
    expect(frame).toContain('● open 3ms');
    expect(frame).toContain('agent main');
  });

  it('sessions pane lists agents and sessions with running, queued and unread badges', () => {
    const state = withState({
      sessions: {
        [key]: sessionFixture({ running: true }),
        'agent:main:telegram:direct:42': sessionFixture({ key: 'agent:main:telegram:direct:42', updatedAt: 1, queued: 2 }),
      },
      unread: { 'agent:main:telegram:direct:42': 3 },
    });
    const frame = show(<SessionsPane state={state} width={36} height={6} focused={false} />);
    expect(frame).toContain('main');
    expect(frame).toMatch(/› main\s+▶/);
    expect(frame).toMatch(/telegram:direct:42\s+\+2 •3/);
  });

  it('chat pane shows messages, collapsed tool cards, markers, errors and the stream', () => {
    const store = new TuiStore(initialState());
    cleanups.push(() => store.dispose());
    const state = withState({
      chats: {
        [key]: {
          hasMore: false,
          running: true,
          items: [
            { kind: 'user', id: 'u1', text: 'build it' },
            { kind: 'tool', id: 't1', name: 'exec', args: 'npm run build', output: 'compiled 12 files', status: 'done' },
            { kind: 'compaction', id: 'c1', before: 90_000, after: 20_000 },
            { kind: 'error', id: 'e1', message: 'Model call failed', hint: 'Check OPENAI_API_KEY, then send again.' },
          ],
          streaming: { runId: 'r', text: 'Working on 投资' },
        },
      },
    });
    const frame = show(<ChatPane {...chatPaneProps(state)} store={store} width={70} height={14} now={0} />);
    expect(frame).toContain('› build it');
    expect(frame).toContain('✓ exec npm run build');
    expect(frame).not.toContain('compiled 12 files');
    expect(frame).toContain('compacted 90k → 20k tokens');
    expect(frame).toContain('✗ Model call failed');
    expect(frame).toContain('→ Check OPENAI_API_KEY');
    expect(frame).toContain('Working on 投资▍');
    const expanded = show(<ChatPane {...chatPaneProps(state)} expanded store={store} width={70} height={14} now={0} />);
    expect(expanded).toContain('compiled 12 files');
  });

  it('chat pane renders Markdown replies, and shows their source when raw is on (Alt+M)', () => {
    const store = new TuiStore(initialState());
    cleanups.push(() => store.dispose());
    const text = '## Result\n\n**done** with `npm test`\n\n```sh\nnpm test\n```';
    const state = withState({
      chats: {
        [key]: { hasMore: false, running: false, items: [{ kind: 'assistant', id: 'a1', text }], streaming: { runId: 'r', text: 'Now *streaming* a `code`' } },
      },
    });
    const rendered = show(<ChatPane {...chatPaneProps(state)} store={store} width={60} height={14} now={0} />);
    expect(rendered).toContain('Result');
    expect(rendered).toContain('done with npm test');
    expect(rendered).toContain('╭─ sh');
    expect(rendered).toContain('Now streaming a code▍');
    expect(rendered).not.toContain('**');
    const raw = show(<ChatPane {...chatPaneProps(state)} raw store={store} width={60} height={14} now={0} />);
    expect(raw).toContain('## Result');
    expect(raw).toContain('**done** with `npm test`');
  });

  it('lanes pane shows global active/limit and busy lanes', () => {
    const state = withState({
      lanes: {
        lanes: [
          { key, depth: 2, active: true, runId: 'r', startedAt: 0, pool: 'main' },
          { key: 'agent:main:idle', depth: 0, active: false, pool: 'main' },
        ],
        global: { active: 1, limit: 4 },
        pools: {},
      },
    });
    const frame = show(<LanesPane state={state} width={30} height={5} focused={false} now={65_000} />);
    expect(frame).toContain('Lanes 1/4');
    expect(frame).toContain('▶ 1m05s main +2');
    expect(frame).not.toContain('idle');
  });

  it('context pane draws the stacked bar, thresholds and compactions', () => {
    const state = withState({
      context: {
        [key]: {
          sessionKey: key,
          window: 100_000,
          used: 60_000,
          parts: [
            { name: 'system', tokens: 10_000 },
            { name: 'history', tokens: 50_000 },
          ],
          thresholds: { flush: 76_000, compact: 80_000 },
          compactions: [{ at: 1, before: 95_000, after: 21_000 }],
        },
      },
    });
    const frame = show(<ContextPane state={state} width={48} height={9} focused={false} />);
    expect(frame).toContain('Context 60k/100k 60%');
    expect(frame).toContain('█');
    expect(frame).toMatch(/F.*C/);
    // The marks are explained in the pane itself.
    expect(frame).toContain('F memory flush at 76k · C compaction at 80k');
    expect(frame).toContain('■ history 50k');
    expect(frame).toContain('95k → 21k');
    // The turn's cost so far, summed from its usage events; a new turn starts again from zero.
    const store = new TuiStore({ ...state, currentKey: key });
    cleanups.push(() => store.dispose());
    const usage = (runId: string, input: number, cost: number) =>
      store.applyEvent('agent', { runId, sessionKey: key, stream: 'usage', model: 'pa/big', usage: { input, output: 100, cost } });
    usage('r1', 900, 0.003);
    usage('r1', 1900, 0.005);
    expect(show(<ContextPane state={store.getState()} width={48} height={10} focused={false} />)).toContain('$ this turn $0.0080 · 3.0k tok · 2 calls');
    usage('r2', 400, 0.001);
    expect(show(<ContextPane state={store.getState()} width={48} height={10} focused={false} />)).toContain('$ this turn $0.0010 · 500 tok · 1 call');
    // The session's browser tabs, current first, from browser.tabs events; another session's tabs are not shown.
    store.applyEvent('browser.tabs', {
      agentId: 'main',
      sessionKey: key,
      tabs: [
        { id: 't1', url: 'https://example.com/a', current: false },
        { id: 't2', url: 'http://127.0.0.1:8080/next', current: true },
      ],
    });
    store.applyEvent('browser.tabs', { agentId: 'main', sessionKey: 'agent:main:other', tabs: [{ id: 't3', url: 'https://elsewhere.test/', current: true }] });
    const withTabs = show(<ContextPane state={store.getState()} width={60} height={11} focused={false} />);
    expect(withTabs).toContain('browser 2 tabs · 127.0.0.1:8080/next');
    expect(withTabs).not.toContain('elsewhere.test');
    store.applyEvent('browser.tabs', { agentId: 'main', sessionKey: key, tabs: [] });
    expect(show(<ContextPane state={store.getState()} width={60} height={11} focused={false} />)).not.toContain('browser');
  });

  it('sub-agent pane shows an empty state, then the tree', () => {
    expect(show(<SubagentsPane state={initialState()} width={40} height={4} focused={false} now={0} />)).toContain('no sub-agents running');
    const state = withState({
      subagents: [{ key: 'c1', parentKey: key, label: 'research', status: 'running', startedAt: 0, depth: 1, lastTool: 'web_fetch' }],
    });
    expect(show(<SubagentsPane state={state} width={50} height={4} focused={false} now={3000} />)).toContain('└─▶ research 3s · web_fetch');
  });

  it('footer shows model, thinking, tokens/window and pending approvals', () => {
    const state = withState({
      sessions: { [key]: sessionFixture({ model: 'openai/gpt-x', thinking: 'low' }) },
      approvals: { pending: [approvalFixture()], resolvedIds: [] },
    });
    const frame = show(<Footer state={state} width={100} now={0} />);
    expect(frame).toContain('openai/gpt-x · think low · 1.2k tok');
    expect(frame).toContain('⚠ 1 approval');
  });

  it('footer shows the key or model failover skips, with the time left, and drops it once it ended', () => {
    const cooling = { scope: 'model' as const, provider: 'pa', label: 'pa/big', kind: 'overloaded', reason: 'overloaded, HTTP 529', until: 25_000 };
    const key2 = { scope: 'key' as const, provider: 'pb', label: 'env:PB_KEY', kind: 'billing', reason: 'billing, HTTP 402', until: 300_000 };
    const state = withState({ sessions: { [key]: sessionFixture({ model: 'pa/big' }) }, cooldowns: [cooling, key2] });
    expect(show(<Footer state={state} width={140} now={0} />)).toContain('⏸ pa/big cooling 25s +1');
    expect(show(<Footer state={state} width={140} now={30_000} />)).toContain('⏸ key env:PB_KEY cooling 5m');
  });

  it("footer shows today's spend and the nearest cap as a small bar; a spend notice lands in the chat", () => {
    const nearest = { key: 'budgets.background.dailyUsd', label: 'background today', unit: 'usd' as const, cap: 1, used: 0.62 };
    const state = withState({
      sessions: { [key]: sessionFixture({ model: 'pa/big' }) },
      spend: { day: '2026-12-07', usd: 0.8, tokens: 12_000, nearest, agents: [] },
    });
    expect(show(<Footer state={state} width={140} now={0} />)).toContain('· $0.80 ▰▰▰▱▱ 62% bg/day');
    const local = withState({ spend: { day: '2026-12-07', usd: 0, tokens: 45_000, agents: [] } });
    expect(show(<Footer state={local} width={140} now={0} />)).toContain('· 45k tok today');
    const store = new TuiStore(withState({ currentKey: key }));
    cleanups.push(() => store.dispose());
    store.applyEvent('spend', {
      day: '2026-12-07',
      usd: 0.9,
      tokens: 1,
      agents: [],
      notice: { kind: 'warning', text: 'Spend warning: background today has used 90%' },
    });
    expect(store.getState().spend).toEqual({ day: '2026-12-07', usd: 0.9, tokens: 1, agents: [] });
    expect(JSON.stringify(store.getState())).toContain('Spend warning: background today has used 90%');
  });

  it('approval prompt shows the whole command wrapped, cwd, agent, reason and time left', () => {
    const approval = approvalFixture();
    const lines = approvalLines(approval, 60, approval.createdAt + 60_000, false, 0);
    const frame = show(<ApprovalPrompt lines={lines} width={60} />);
    const joined = frame
      .split('\n')
      .map((l) => l.replace(/^[│ ]+|[│ ]+$/g, '').replace(/^\$ /, ''))
      .join('')
      .replace(/\s/g, '');
    expect(joined).toContain(approval.command.replace(/\s/g, ''));
    expect(frame).toContain('cwd /home/me/project');
    expect(frame).toContain('why: not in the allowlist');
    expect(frame).toContain('29m00s left');
    expect(frame).toContain('y once · s this session · a always');
  });
});

describe('the completion popup and the compaction strip', () => {
  it('a long argument hint moves to the description instead of being cut', () => {
    const frame = show(
      <Popup
        items={[
          { label: '/compact [instructions] | undo | review [json] | redo [instructions]', description: 'Summarise older history now.' },
          { label: '/new', description: 'Start a fresh session.' },
        ]}
        index={1}
        width={130}
      />,
    );
    expect(frame).toContain('/compact');
    expect(frame).toContain('[instructions] | undo | review [json] | redo [instructions] — Summarise older history now.');
    expect(frame).toContain('/new');
  });

  it('the strip shows the countdown, the keys first and the figures; r adds the identifiers', () => {
    const preview = {
      id: 'p1',
      sessionKey: 'agent:main:main',
      runId: 'r1',
      messages: 31,
      turns: 12,
      tokensBefore: 6_500,
      tokensAfter: 2_100,
      identifiers: ['OPS-77', '/srv/app/config.yaml'],
      deadline: 10_000,
    };
    const state = { ...initialState(), currentKey: 'agent:main:main', compactionPreviews: { 'agent:main:main': preview } };
    expect(show(<CompactionStrip state={state} width={80} now={6_500} />)).toMatch(
      /⟳ Compacting in 4s · c now · p postpone · r details — 12 turns \(31 messages\)/,
    );
    const details = show(<CompactionStrip state={{ ...state, ui: { ...state.ui, previewDetails: true } }} width={120} now={6_500} />);
    expect(details).toContain('kept verbatim: OPS-77, /srv/app/config.yaml');
    expect(show(<CompactionStrip state={{ ...state, currentKey: 'agent:main:other' }} width={80} now={0} />)).toBe('');
  });
});
