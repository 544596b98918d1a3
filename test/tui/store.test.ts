import { afterEach, describe, expect, it } from 'vitest';
import { reduceEvent } from '../../source/tui/store/event-table.js';
import { entriesToItems } from '../../source/tui/store/history.js';
import { reduceHello } from '../../source/tui/store/reducers.js';
import { selectActiveApproval, selectChat, selectFooter, selectSessionRows } from '../../source/tui/store/selectors.js';
import { CHAT_WINDOW, initialState, type TuiState } from '../../source/tui/store/state.js';
import { TuiStore } from '../../source/tui/store/store.js';
import { approvalFixture, sessionFixture } from './support/fixtures.js';

const key = 'agent:main:main';
const now = 5_000_000;

function apply(state: TuiState, ...events: Array<[string, unknown]>): TuiState {
  const store = new TuiStore(state);
  for (const [event, payload] of events) store.applyEvent(event, payload);
  store.dispose();
  return store.getState();
}

describe('event reducers', () => {
  it('streams deltas apart from settled items and settles on final', () => {
    const streaming = apply(
      initialState(),
      ['chat', { runId: 'r1', sessionKey: key, state: 'delta', delta: 'Hel' }],
      ['chat', { runId: 'r1', sessionKey: key, state: 'delta', delta: 'lo' }],
    );
    expect(selectChat(streaming).streaming?.text).toBe('Hello');
    expect(selectChat(streaming).items).toHaveLength(0);
    const done = apply(streaming, ['chat', { runId: 'r1', sessionKey: key, state: 'final', text: 'Hello' }]);
    expect(selectChat(done).streaming).toBeUndefined();
    expect(selectChat(done).items).toMatchObject([{ kind: 'assistant', text: 'Hello' }]);
  });

  it("drops a provider retry's countdown once the reply streams in", () => {
    const waiting = apply(
      initialState(),
      ['agent', { runId: 'r1', sessionKey: key, stream: 'lifecycle', phase: 'start' }],
      ['agent', { runId: 'r1', sessionKey: key, stream: 'retry', model: 'fake/m', attempt: 1, delayMs: 60_000, reason: 'rate_limit' }],
    );
    expect(waiting.progress[key]?.retry).toMatchObject({ attempt: 1, model: 'fake/m' });
    const answered = apply(waiting, ['chat', { runId: 'r1', sessionKey: key, state: 'delta', delta: 'Hi' }]);
    expect(answered.progress[key]).toBeDefined();
    expect(answered.progress[key]?.retry).toBeUndefined();
  });

  it('settles text before a tool card and fills the card on end', () => {
    const state = apply(
      initialState(),
      ['agent', { runId: 'r1', sessionKey: key, stream: 'lifecycle', phase: 'start' }],
      ['chat', { runId: 'r1', sessionKey: key, state: 'delta', delta: 'Let me look.' }],
      ['agent', { runId: 'r1', sessionKey: key, stream: 'tool', phase: 'start', toolCallId: 't1', name: 'exec', args: { command: 'ls -la' } }],
      ['agent', { runId: 'r1', sessionKey: key, stream: 'tool', phase: 'end', toolCallId: 't1', name: 'exec', output: 'a.txt' }],
      ['agent', { runId: 'r1', sessionKey: key, stream: 'lifecycle', phase: 'end' }],
    );
    const chat = selectChat(state);
    expect(chat.items).toMatchObject([
      { kind: 'assistant', text: 'Let me look.' },
      { kind: 'tool', name: 'exec', args: 'ls -la', output: 'a.txt', status: 'done' },
    ]);
    expect(chat.running).toBe(false);
  });

  it('shows errors with their next step and compactions as markers', () => {
    const state = apply(
      initialState(),
      ['chat', { runId: 'r1', sessionKey: key, state: 'error', message: 'No API key for openai', hint: 'set OPENAI_API_KEY' }],
      ['agent', { runId: 'r1', sessionKey: key, stream: 'compaction', phase: 'end', tokensBefore: 90_000, tokensAfter: 20_000 }],
    );
    expect(selectChat(state).items).toMatchObject([
      { kind: 'error', message: 'No API key for openai', hint: 'set OPENAI_API_KEY' },
      { kind: 'compaction', before: 90_000, after: 20_000 },
    ]);
  });

  it('counts unread replies in other sessions', () => {
    const state = apply(initialState(), ['chat', { runId: 'r2', sessionKey: 'agent:main:cron', state: 'final', text: 'done' }]);
    expect(state.unread['agent:main:cron']).toBe(1);
  });

  it('keeps a bounded window of items', () => {
    let state = initialState();
    for (let i = 0; i < CHAT_WINDOW + 50; i++) state = reduceEvent(state, 'chat', { runId: `r${i}`, sessionKey: key, state: 'final', text: `m${i}` }, now);
    const chat = selectChat(state);
    expect(chat.items).toHaveLength(CHAT_WINDOW);
    expect(chat.hasMore).toBe(true);
    expect(chat.items.at(-1)).toMatchObject({ text: `m${CHAT_WINDOW + 49}` });
  });

  it('ignores events whose payload does not match the protocol', () => {
    const state = initialState();
    expect(apply(state, ['chat', { state: 'delta' }], ['no.such.event', {}])).toBe(state);
  });

  it('opens approvals from events and closes them with who decided', () => {
    const approval = approvalFixture();
    const opened = apply(initialState(), ['approval.requested', { approval }], ['approval.requested', { approval }]);
    expect(opened.approvals.pending).toHaveLength(1);
    expect(selectActiveApproval(opened)?.id).toBe('ap-1');
    const closed = apply(opened, ['approval.resolved', { approval: { ...approval, status: 'approved', decision: 'once', resolvedBy: 'phone' } }]);
    expect(selectActiveApproval(closed)).toBeUndefined();
    expect(selectChat(closed).items.at(-1)).toMatchObject({ kind: 'notice', text: expect.stringContaining('approved (once) by phone') });
  });

  it('takes pending approvals, sessions and lanes from the hello snapshot', () => {
    const state = reduceHello(initialState(), {
      protocol: 1,
      server: { version: '9.9.9', connId: 'c', epoch: 'e', host: 'box' },
      scopes: ['read'],
      methods: ['status'],
      events: [],
      seq: 0,
      resume: 'none',
      snapshot: {
        approvals: [approvalFixture(), approvalFixture({ id: 'old', status: 'approved' })],
        sessions: [sessionFixture({ model: 'openai/gpt-x', running: true })],
        // A gateway of another version may send a key in a shape this client does not know.
        lanes: 'not a lanes payload' as never,
      },
    });
    expect(state.approvals.pending.map((a) => a.id)).toEqual(['ap-1']);
    expect(state.conn).toMatchObject({ host: 'box', version: '9.9.9', state: 'open' });
    expect(selectFooter(state)).toMatchObject({ model: 'openai/gpt-x', pendingApprovals: 1, thinking: 'default' });
    // Once the gateway said which level the session's turns use, the footer names it.
    expect(selectFooter({ ...state, defaultThinking: { [state.currentKey]: 'high' } })).toMatchObject({ thinking: 'high' });
    expect(selectSessionRows(state)).toMatchObject([
      { kind: 'agent', label: 'main' },
      { kind: 'session', running: true, current: true },
    ]);
    expect(state.lanes).toBeUndefined();
  });

  it('knows the clients that were connected first, so their messages carry their names', () => {
    const hello = reduceHello(initialState(), {
      protocol: 1,
      server: { version: '9.9.9', connId: 'c', epoch: 'e', host: 'box' },
      scopes: ['read'],
      methods: [],
      events: [],
      seq: 0,
      resume: 'none',
      snapshot: {
        presence: [
          { connId: 'c1', clientId: 'claw-early', clientName: 'tui · ana@laptop', version: '0.1.0', address: '127.0.0.1', connectedAt: 1, scopes: ['write'] },
        ],
      },
    });
    const state = apply(hello, ['message.accepted', { sessionKey: key, messageId: 'm1', text: 'hi', channel: 'tui', clientId: 'claw-early', at: now }]);
    expect(selectChat(state).items.at(-1)).toMatchObject({ kind: 'user', text: 'hi', from: 'tui · ana@laptop' });
  });
});

describe('history', () => {
  it('turns transcript entries into items with tool results in their cards', () => {
    const items = entriesToItems([
      { type: 'message', role: 'user', id: 'e1', parentId: null, timestamp: 1, content: 'list files' },
      {
        type: 'message',
        role: 'assistant',
        id: 'e2',
        parentId: 'e1',
        timestamp: 2,
        content: [{ type: 'toolCall', id: 't1', name: 'exec', arguments: { command: 'ls' } }],
      },
      { type: 'message', role: 'toolResult', id: 'e3', parentId: 'e2', timestamp: 3, toolCallId: 't1', toolName: 'exec', content: 'a.txt', isError: false },
      { type: 'message', role: 'assistant', id: 'e4', parentId: 'e3', timestamp: 4, content: [{ type: 'text', text: 'One file.' }] },
    ]);
    expect(items).toMatchObject([
      { kind: 'user', text: 'list files' },
      { kind: 'tool', name: 'exec', args: 'ls', output: 'a.txt', status: 'done' },
      { kind: 'assistant', text: 'One file.' },
    ]);
  });

  it('names who wrote a channel message, and keys a message by its id as the live echo is', () => {
    const items = entriesToItems([
      {
        type: 'message',
        role: 'user',
        id: 'e1',
        parentId: null,
        timestamp: 1,
        content: 'from my phone',
        meta: { channel: 'telegram', messageId: '42', senderName: 'Ada' },
      },
      { type: 'message', role: 'user', id: 'e2', parentId: null, timestamp: 2, content: 'typed here', meta: { channel: 'tui', messageId: 'k-1' } },
      { type: 'message', role: 'user', id: 'e3', parentId: null, timestamp: 3, content: 'a webhook', meta: { channel: 'webhook' } },
    ]);
    expect(items).toEqual([
      { kind: 'user', id: 'msg:42', entryId: 'e1', text: 'from my phone', from: 'Ada' },
      { kind: 'user', id: 'msg:k-1', entryId: 'e2', text: 'typed here' },
      { kind: 'user', id: 'e3', entryId: 'e3', text: 'a webhook', from: 'webhook' },
    ]);
  });
});

describe('store notifications', () => {
  let store: TuiStore | undefined;
  afterEach(() => store?.dispose());

  it('coalesces a burst of updates into one notification', async () => {
    store = new TuiStore(initialState(), { frameMs: 20 });
    let notified = 0;
    store.subscribe(() => {
      notified += 1;
    });
    for (let i = 0; i < 100; i++) store.applyEvent('chat', { runId: 'r', sessionKey: key, state: 'delta', delta: 'x' });
    await expect.poll(() => notified).toBe(1);
    expect(selectChat(store.getState()).streaming?.text).toHaveLength(100);
  });
});
