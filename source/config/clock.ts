/**
 * The one clock of the daemon: every subsystem reads time and sets timers
 * through it, so tests pass a manual clock and simulate a week in a second.
 */
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

/** Waits `ms` on a clock; rejects with the signal's reason when it aborts first. */
export function sleepOn(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clock.clearTimer(handle);
      reject(signal?.reason);
    };
    const handle = clock.setTimer(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
