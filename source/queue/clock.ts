/** Time as lanes see it; tests pass a manual clock to simulate minutes in microseconds. */
export interface Clock {
  now(): number;
  setTimer(callback: () => void, ms: number): TimerHandle;
  clearTimer(handle: TimerHandle): void;
}

export interface TimerHandle {
  readonly id: number;
}

export const systemClock: Clock = (() => {
  const timers = new Map<number, NodeJS.Timeout>();
  let next = 0;
  return {
    now: () => Date.now(),
    setTimer(callback, ms) {
      next += 1;
      const id = next;
      const timer = setTimeout(() => {
        timers.delete(id);
        callback();
      }, ms);
      timer.unref();
      timers.set(id, timer);
      return { id };
    },
    clearTimer(handle) {
      clearTimeout(timers.get(handle.id));
      timers.delete(handle.id);
    },
  };
})();
