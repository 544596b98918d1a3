import { afterEach, describe, expect, it } from 'vitest';
import { selectChat } from '../../source/tui/store/selectors.js';
import { openApp, KEYS, PAUSE, type AppHarness } from './support/app-harness.js';
import { approvalFixture } from './support/fixtures.js';
import { operatorFake, type OperatorFake } from './support/operator-module.js';
import { transcriptsModule } from './support/transcripts-module.js';

let harness: AppHarness | undefined;
afterEach(async () => {
  await harness?.stop();
  harness = undefined;
});

async function withOperator(
  options: Parameters<typeof operatorFake>[0] = {},
  size?: { cols: number; rows: number },
): Promise<{ h: AppHarness; fake: OperatorFake }> {
  const fake = operatorFake(options);
  harness = await openApp([fake.factory], size);
  await expect.poll(() => harness!.frame()).toContain('● open');
  return { h: harness, fake };
}

const draft = (h: AppHarness) => h.store.getState().ui.editor;
const resolves = (fake: OperatorFake) => fake.calls.filter((c) => c.method === 'approvals.resolve');

describe('editing keys', () => {
  it('Backspace (0x7f) deletes before the cursor and Delete (ESC[3~) after it, mid-line and at the end', async () => {
    const { h } = await withOperator();
    h.type('abc');
    await expect.poll(() => draft(h).text).toBe('abc');
    h.type(KEYS.backspace);
    await expect.poll(() => draft(h).text).toBe('ab');
    h.type('c');
    h.type(KEYS.left);
    h.type(KEYS.left);
    h.type(KEYS.backspace);
    await expect.poll(() => draft(h).text).toBe('bc');
    expect(draft(h).cursor).toBe(0);
    h.type(KEYS.delete);
    await expect.poll(() => draft(h).text).toBe('c');
  });

  it('moves and deletes by word and line, and Ctrl+R finds an earlier message', async () => {
    const { h } = await withOperator();
    h.type('deploy the server now');
    await expect.poll(() => draft(h).text).toBe('deploy the server now');
    h.type(KEYS.altB);
    h.type(KEYS.ctrlLeft);
    await expect.poll(() => draft(h).cursor).toBe('deploy the '.length);
    h.type(KEYS.ctrlK);
    await expect.poll(() => draft(h).text).toBe('deploy the ');
    h.type(KEYS.ctrlW);
    await expect.poll(() => draft(h).text).toBe('deploy ');
    h.type(KEYS.ctrlU);
    await expect.poll(() => draft(h).text).toBe('');
    h.type('first message\r');
    h.type('second message\r');
    await expect.poll(() => draft(h).history).toHaveLength(2);
    h.type(KEYS.ctrlR);
    h.type('fir');
    await expect.poll(() => h.flat()).toContain('(history search) fir');
    h.type(KEYS.enter);
    await expect.poll(() => draft(h).text).toBe('first message');
  });

  it('Up and Down move inside a multi-line draft and reach history only from its first line', async () => {
    const { h } = await withOperator();
    h.type('earlier\r');
    await expect.poll(() => draft(h).history).toEqual(['earlier']);
    h.type('line one\x0aline two');
    await expect.poll(() => draft(h).text).toBe('line one\nline two');
    h.type(KEYS.up);
    await expect.poll(() => draft(h).cursor).toBe('line two'.length);
    expect(draft(h).text).toBe('line one\nline two');
    h.type(KEYS.up);
    await expect.poll(() => draft(h).text).toBe('earlier');
    h.type(KEYS.down);
    await expect.poll(() => draft(h).text).toBe('line one\nline two');
  });

  it('typing while a side pane has focus goes to the input', async () => {
    const { h } = await withOperator();
    h.type(KEYS.ctrlL);
    await expect.poll(() => h.frame()).toContain('Sessions');
    h.type(KEYS.tab);
    await expect.poll(() => h.store.getState().ui.focus).not.toBe('chat');
    await expect.poll(() => h.frame()).toContain('typing goes to the input');
    h.type('hello');
    await expect.poll(() => draft(h).text).toBe('hello');
    expect(h.store.getState().ui.focus).toBe('chat');
  });

  it('says "Ctrl+C again to quit" only while the second Ctrl+C would quit', async () => {
    const { h } = await withOperator();
    h.type(KEYS.ctrlC);
    await expect.poll(() => h.frame()).toContain('Ctrl+C again to quit');
    h.advance(2_500);
    // The footer is redrawn on the once-a-second clock tick.
    await expect.poll(() => h.frame(), { timeout: 3_000 }).not.toContain('Ctrl+C again to quit');
    h.type(KEYS.ctrlC);
    await expect.poll(() => h.frame()).toContain('Ctrl+C again to quit');
    expect(h.exited()).toBe(0);
  });
});

describe('the approval typing guard', () => {
  it('sends keys typed as the prompt appears to the draft, then takes a deliberate key', async () => {
    const { h, fake } = await withOperator();
    h.type('something I was wri');
    await expect.poll(() => draft(h).text).toBe('something I was wri');
    const approval = approvalFixture({ id: 'ap-guard', command: 'touch /tmp/x', expiresAt: Date.now() + 600_000 });
    fake.pending.push(approval);
    fake.bus().emit('approval.requested', { approval });
    await expect.poll(() => h.frame()).toContain('$ touch /tmp/x');
    // Mid-word: `s` (session), `y` (once) and `a` (always) all arrive within the guard.
    for (const ch of 'ting, say yes and always') h.type(ch);
    await expect.poll(() => draft(h).text).toBe('something I was writing, say yes and always');
    expect(resolves(fake)).toHaveLength(0);
    await expect.poll(() => h.flat()).toContain('went to your draft, not the prompt');
    expect(h.flat()).toContain('❯ something I was writing, say yes and always');
    // A paste of several characters is never a decision, even after a pause.
    h.advance(PAUSE);
    h.type('yy');
    await expect.poll(() => draft(h).text).toBe('something I was writing, say yes and alwaysyy');
    expect(resolves(fake)).toHaveLength(0);
    h.advance(PAUSE);
    h.type('n');
    await expect.poll(() => resolves(fake)).toHaveLength(1);
    expect(resolves(fake)[0]!.params).toMatchObject({ id: 'ap-guard', decision: 'deny' });
    await expect.poll(() => h.frame()).not.toContain('$ touch /tmp/x');
    expect(draft(h).text).toBe('something I was writing, say yes and alwaysyy');
  });
});

describe('live messages from other clients', () => {
  it('shows a message another client sent, with who sent it, and never doubles its own', async () => {
    const { h, fake } = await withOperator();
    h.type('mine\r');
    await expect.poll(() => h.frame()).toContain('echo: mine');
    const mine = selectChat(h.store.getState()).items.filter((i) => i.kind === 'user');
    expect(mine).toHaveLength(1);
    fake.bus().emit('message.accepted', {
      sessionKey: 'agent:main:main',
      messageId: 'from-attach-1',
      text: 'sent from claw attach',
      channel: 'tui',
      sender: 'tui · ana@laptop',
      at: Date.now(),
    });
    await expect.poll(() => h.frame()).toContain('› sent from claw attach');
    expect(h.frame()).toContain('from tui · ana@laptop');
    fake
      .bus()
      .emit('message.accepted', { sessionKey: 'agent:main:main', messageId: 'from-attach-1', text: 'sent from claw attach', channel: 'tui', at: Date.now() });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(selectChat(h.store.getState()).items.filter((i) => i.kind === 'user')).toHaveLength(2);
    // A TUI client says nothing of its sender; presence knows its name and host.
    fake.bus().emit('presence', {
      clients: [
        { connId: 'c7', clientId: 'claw-0a1b2c3d', clientName: 'tui · cy@box', version: '0.1.0', address: '127.0.0.1', connectedAt: 1, scopes: ['write'] },
      ],
    });
    fake.bus().emit('message.accepted', {
      sessionKey: 'agent:main:main',
      messageId: 'from-attach-2',
      text: 'second client',
      channel: 'tui',
      clientId: 'claw-0a1b2c3d',
      at: Date.now(),
    });
    await expect.poll(() => h.frame()).toContain('› second client');
    expect(h.frame()).toContain('from tui · cy@box');
  });

  it('names an approver by the client name from presence, not its random id', async () => {
    const approval = approvalFixture({ id: 'ap-p', command: 'echo hi', expiresAt: Date.now() + 600_000 });
    const { h, fake } = await withOperator({ pending: [approval] });
    await expect.poll(() => h.frame()).toContain('$ echo hi');
    fake.bus().emit('presence', {
      clients: [
        { connId: 'c9', clientId: 'claw-f2908e7b', clientName: 'tui · bo@desk', version: '0.1.0', address: '10.0.0.7', connectedAt: 1, scopes: ['read'] },
      ],
    });
    fake.bus().emit('approval.resolved', { approval: { ...approval, status: 'approved', decision: 'once', resolvedBy: 'claw-f2908e7b' } });
    await expect.poll(() => h.flat()).toContain('approved (once) by tui · bo@desk (10.0.0.7)');
    expect(h.flat()).not.toContain('claw-f2908e7b');
  });
});

describe('search and the session picker', () => {
  it('Ctrl+F searches every session, Enter jumps to the message in its session, n goes to the next hit', async () => {
    const filler = Array.from({ length: 300 }, (_, i) => `filler line ${i} about nothing`);
    harness = await openApp(
      [
        transcriptsModule({
          'agent:main:main': ['hello there', 'hi'],
          'agent:main:telegram:direct:42': ['我的投资目标是长期增长', '好的', ...filler, 'the deployment checklist is ready', 'ok'],
          'agent:main:telegram:direct:43': ['another deployment note', 'noted'],
        }),
      ],
      { cols: 100, rows: 30 },
    );
    const h = harness;
    await expect.poll(() => h.frame()).toContain('● open');
    h.type(KEYS.ctrlF);
    await expect.poll(() => h.frame()).toContain('Search all sessions');
    h.type('deployment');
    h.type(KEYS.enter);
    await expect.poll(() => h.flat()).toMatch(/Search "deployment": 2 hits/);
    expect(h.flat()).toContain('telegram:direct:42');
    expect(h.flat()).toContain('telegram:direct:43');
    const first = h.store.getState().ui.search!.hits[0]!;
    h.type(KEYS.enter);
    await expect.poll(() => h.store.getState().currentKey).toBe(first.sessionKey);
    await expect.poll(() => h.flat()).toContain(first.sessionKey.endsWith(':42') ? 'the deployment checklist is ready' : 'another deployment note');
    h.type('n');
    const second = h.store.getState().ui.search!.hits[1]!;
    await expect.poll(() => h.store.getState().currentKey).toBe(second.sessionKey);
    // The checklist is 300 messages into its session: history was paged back to it.
    await expect.poll(() => h.flat()).toContain(second.sessionKey.endsWith(':42') ? 'the deployment checklist is ready' : 'another deployment note');
    h.type(KEYS.esc);
    await expect.poll(() => h.frame()).not.toContain('Search "deployment"');
    h.type('/search 投资\r');
    await expect.poll(() => h.flat()).toMatch(/Search "投资": 1 hit/);
  });

  it('Enter on a hit in the current session finds a message that arrived live (no transcript id yet) instead of calling it gone', async () => {
    harness = await openApp([transcriptsModule({ 'agent:main:main': ['hello there', 'hi', 'the rollout checklist is ready', 'great'] })], {
      cols: 100,
      rows: 30,
    });
    const h = harness;
    await expect.poll(() => h.flat()).toContain('the rollout checklist is ready');
    // As if the last two were sent and answered in this TUI: live items, with ids of their own and no transcript id.
    h.store.update((s) => {
      const items = s.chats['agent:main:main']!.items;
      const live = items.slice(-2).map(({ entryId: _id, ...item }, i) => ({ ...item, id: `live-${i}` }));
      return { ...s, chats: { ...s.chats, 'agent:main:main': { ...s.chats['agent:main:main']!, items: [...items.slice(0, -2), ...live] } } };
    });
    h.type(KEYS.ctrlF);
    h.type('rollout');
    h.type(KEYS.enter);
    await expect.poll(() => h.flat()).toMatch(/Search "rollout": 1 hit/);
    h.type(KEYS.enter);
    await expect.poll(() => h.store.getState().ui.anchor?.pending).not.toBe(true);
    expect(h.flat()).not.toContain('no longer in the session');
    const items = h.store.getState().chats['agent:main:main']!.items;
    expect(items.filter((item) => item.kind === 'user' && 'text' in item && String(item.text).includes('rollout'))).toHaveLength(1);
  });

  it('/sessions opens a picker with a fuzzy filter; Enter switches', async () => {
    harness = await openApp([transcriptsModule({ 'agent:main:main': ['a'], 'agent:main:telegram:direct:42': ['b'], 'agent:main:discord:group:dev': ['c'] })]);
    const h = harness;
    await expect.poll(() => h.frame()).toContain('● open');
    h.type('/sessions\r');
    await expect.poll(() => h.frame()).toContain('Sessions:');
    h.type('dcdev');
    await expect.poll(() => h.flat()).toMatch(/Sessions: dcdev/);
    h.type(KEYS.enter);
    await expect.poll(() => h.store.getState().currentKey).toBe('agent:main:discord:group:dev');
  });
});
