import type { Clock, TimerHandle } from './clock.js';

/** At most one call per interval, always delivering the last change. */
export function throttle(clock: Clock, fn: () => void, intervalMs: number): { poke(): void; cancel(): void } {
  let last = Number.NEGATIVE_INFINITY;
  let timer: TimerHandle | undefined;
  const fire = (): void => {
    timer = undefined;
    last = clock.now();
    fn();
  };
  return {
    poke() {
      if (timer) return;
      const wait = last + intervalMs - clock.now();
      if (wait <= 0) fire();
      else timer = clock.setTimer(fire, wait);
    },
    cancel() {
      if (timer) clock.clearTimer(timer);
      timer = undefined;
    },
  };
}
