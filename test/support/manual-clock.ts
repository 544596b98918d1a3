import type { Clock, TimerHandle } from '../../source/config/index.js';

/** A clock that only moves when the test says so; timers fire in time order during advance(). */
export class ManualClock implements Clock {
  private current: number;
  private nextId = 0;
  private readonly timers = new Map<number, { at: number; callback: () => void }>();

  constructor(start = Date.UTC(2026, 0, 1, 12)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimer(callback: () => void, ms: number): TimerHandle {
    this.nextId += 1;
    this.timers.set(this.nextId, { at: this.current + Math.max(0, ms), callback });
    return { id: this.nextId };
  }

  clearTimer(handle: TimerHandle): void {
    this.timers.delete(handle.id);
  }

  /** Moves time forward, firing every timer that comes due on the way. */
  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      let dueId: number | undefined;
      let dueAt = Infinity;
      for (const [id, timer] of this.timers)
        if (timer.at <= target && timer.at < dueAt) {
          dueAt = timer.at;
          dueId = id;
        }
      if (dueId === undefined) break;
      const timer = this.timers.get(dueId)!;
      this.timers.delete(dueId);
      this.current = Math.max(this.current, timer.at);
      timer.callback();
    }
    this.current = target;
  }

  pendingTimers(): number {
    return this.timers.size;
  }
}
