import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionSummary } from '../../source/protocol/index.js';
import { echoRunner } from '../../source/queue/index.js';
import { SessionsPane } from '../../source/tui/components/SessionsPane.js';
import { computeLayout } from '../../source/tui/layout.js';
import { initialState } from '../../source/tui/store/state.js';
import { TuiStore } from '../../source/tui/store/store.js';
import { stringWidth } from '../../source/tui/text/width.js';
import type { FakeChat, FakeUser } from '../support/fake-telegram.js';
import { sentTo, startTelegramRig, type TelegramRig } from './telegram-harness.js';

const ada: FakeUser = { id: 5001, first_name: 'Ada', last_name: 'Lovelace', username: 'ada' };
const adaChat: FakeChat = { id: 5001, type: 'private' };
const family: FakeChat = { id: -100700, type: 'supergroup', title: 'Family', is_forum: true };

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups.length = 0;
});

describe('channel sessions name their chat', () => {
  it('the gateway summary carries the peer, and the sessions pane shows `telegram · Ada` and the group topic within an 80-column layout', async () => {
    const rig: TelegramRig = await startTelegramRig({
      account: { dmPolicy: 'allowlist', allowFrom: [String(ada.id)], groups: { [String(family.id)]: { requireMention: false } } },
      core: { runner: echoRunner },
    });
    cleanups.push(() => rig.stop());
    const { telegram, gateway } = rig;
    const client = await gateway.connect();
    const store = new TuiStore(initialState());
    cleanups.push(() => store.dispose());
    client.on('sessions.changed', (payload) => store.applyEvent('sessions.changed', payload));
    telegram.pushMessage(adaChat, ada, 'hi');
    telegram.pushMessage(family, ada, 'dinner at 7?', { threadId: 3 });
    await expect.poll(() => sentTo(telegram, adaChat.id).length + sentTo(telegram, family.id).length, { timeout: 5000 }).toBe(2);

    const { sessions } = await client.request('sessions.list', {});
    const byKey = new Map<string, SessionSummary>(sessions.map((s) => [s.key, s]));
    expect(byKey.get('agent:main:telegram:direct:5001')?.peer).toEqual({ kind: 'direct', id: '5001', name: 'Ada Lovelace' });
    expect(byKey.get('agent:main:telegram:group:-100700:thread:3')?.peer).toEqual({ kind: 'group', id: '-100700', name: 'Family', threadId: '3' });
    // Kept in sessions.json: a restarted gateway still names them.
    const stored = gateway.core.sessions.registry.get('agent:main:telegram:direct:5001');
    expect(stored?.entry.peer?.name).toBe('Ada Lovelace');

    await expect.poll(() => Object.keys(store.getState().sessions).length, { timeout: 5000 }).toBe(2);
    const width = computeLayout({ cols: 80, rows: 24, hidden: [], bottomRows: 3 }).left!.width;
    const instance = render(<SessionsPane state={store.getState()} width={width} height={8} focused={false} />);
    cleanups.push(instance.unmount);
    const lines = (instance.lastFrame() ?? '').split('\n');
    // 26 columns: the names are cut with an ellipsis, never wrapped onto the next row.
    expect(lines.some((line) => line.includes('telegram · Ada Lovel…'))).toBe(true);
    expect(lines.some((line) => line.includes('telegram · group "Fa…'))).toBe(true);
    expect(lines.join('\n')).not.toContain('agent:main:telegram');
    for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(width);
  });

  it('the topic is named in full where the pane is wide enough', async () => {
    const state = {
      ...initialState(),
      sessions: {
        'agent:main:telegram:group:-100700:thread:3': {
          key: 'agent:main:telegram:group:-100700:thread:3',
          agentId: 'main',
          sessionId: 's',
          kind: 'group' as const,
          createdAt: 1,
          updatedAt: 2,
          tokens: { input: 0, output: 0, context: 0 },
          costUsd: 0,
          compactionCount: 0,
          lastChannel: 'telegram',
          peer: { kind: 'group' as const, id: '-100700', name: 'Family', threadId: '3' },
          running: false,
          queued: 0,
        },
      },
    };
    const instance = render(<SessionsPane state={state} width={44} height={5} focused={false} />);
    cleanups.push(instance.unmount);
    expect(instance.lastFrame()).toContain('telegram · group "Family" · topic 3');
  });
});
