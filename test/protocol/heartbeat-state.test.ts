import { describe, expect, it } from 'vitest';
import { heartbeatStateWord } from '../../source/protocol/index.js';

describe('the heartbeat state word', () => {
  it('is one word per state, off and paused first, whatever else is set', () => {
    const base = { enabled: true, paused: false, running: false };
    expect(heartbeatStateWord({ ...base, enabled: false, paused: true })).toBe('off (every: 0)');
    expect(heartbeatStateWord({ ...base, paused: true, running: true })).toBe('paused');
    expect(heartbeatStateWord({ ...base, budgetExhaustedAt: 1, running: true })).toBe('stopped for today (budget spent)');
    expect(heartbeatStateWord({ ...base, running: true })).toBe('running');
    expect(heartbeatStateWord(base)).toBe('on');
  });
});
