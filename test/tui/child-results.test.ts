import { describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '../../source/protocol/index.js';
import { entriesToItems } from '../../source/tui/store/history.js';
import { initialState } from '../../source/tui/store/state.js';
import { TuiStore } from '../../source/tui/store/store.js';

const REPORT = [
  '[subagent_result] 2 child runs reported (in the order they finished):',
  '--- "scan logs" · done · 12s · 830 tokens · run r-1 (agent:main:subagent:abc)',
  'Found 3 errors in /var/log/app.log.',
  '--- "check disk" · timeout · 60s · 120 tokens · run r-2 (agent:main:subagent:def)',
  '(the child gave no text)',
  '',
  'These results are not visible to the user yet: use them to continue the task.',
].join('\n');

describe('a sub-agent report in the parent chat', () => {
  it('shows each child as a collapsed block with its label and outcome, never as a user line with the model-only sentence', () => {
    const entry: TranscriptEntry = {
      id: 'e1',
      parentId: null,
      timestamp: 1,
      type: 'message',
      role: 'user',
      content: REPORT,
      meta: { channel: 'subagent', messageId: 'm1' },
    } as TranscriptEntry;
    const items = entriesToItems([entry]);
    expect(items).toEqual([
      expect.objectContaining({
        kind: 'tool',
        name: 'sub-agent "scan logs"',
        args: 'done · 12s · 830 tokens',
        output: 'Found 3 errors in /var/log/app.log.',
        status: 'done',
      }),
      expect.objectContaining({ kind: 'tool', name: 'sub-agent "check disk"', args: 'timeout · 60s · 120 tokens', status: 'error' }),
    ]);
    expect(JSON.stringify(items)).not.toContain('not visible to the user');

    // Live, from the message.accepted event, the same.
    const store = new TuiStore({ ...initialState(), currentKey: 'agent:main:main' });
    store.applyEvent('message.accepted', { sessionKey: 'agent:main:main', messageId: 'm1', channel: 'subagent', text: REPORT, at: 1 });
    store.flush();
    const live = store.getState().chats['agent:main:main']!.items;
    expect(live.map((item) => item.kind)).toEqual(['tool', 'tool']);
    store.dispose();
  });
});
