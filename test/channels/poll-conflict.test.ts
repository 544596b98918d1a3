import { describe, expect, it } from 'vitest';
import { PollConflict } from '../../source/channels/telegram/poll-conflict.js';
import { ManualClock } from '../support/manual-clock.js';

describe('PollConflict (what a 409 from getUpdates means)', () => {
  it('a poller that never completed a poll yields; one that held the token reclaims at the pace of a newcomer’s backoff', () => {
    const clock = new ManualClock();
    const newcomer = new PollConflict({ clock, firstDelayMs: 5_000 });
    expect(newcomer.conflict()).toBe('yield');
    const holder = new PollConflict({ clock, firstDelayMs: 5_000 });
    holder.polled();
    // The newcomer's retries (5 s doubling, minus jitter) reach the holder at 0, 4, 12, 28, 60, 124 … s.
    for (const wait of [0, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000, 256_000]) {
      clock.advance(wait);
      expect(holder.conflict()).toBe('reclaim');
    }
  });

  it('two pollers that both held the token stop fighting after a burst, and a completed poll resets nothing while contested', () => {
    const clock = new ManualClock();
    const a = new PollConflict({ clock, firstDelayMs: 5_000 });
    a.polled();
    const answers = Array.from({ length: 7 }, () => a.conflict());
    expect(answers).toEqual(['reclaim', 'reclaim', 'reclaim', 'reclaim', 'reclaim', 'yield', 'yield']);
    expect(a.contested()).toBe(true);
    clock.advance(599_000);
    expect(a.contested()).toBe(true);
    clock.advance(2_000);
    expect(a.contested()).toBe(false);
  });
});
