import type { TimerHandle } from '../config/index.js';
import type { ActiveTurn } from './active-turn.js';
import { poolForSessionKey, type PoolName } from './modes.js';
import type { QueuedMessage } from './turn-runner.js';

/** One session's lane: its backlog, the turn running on it, and its collect debounce. */
export interface Lane {
  key: string;
  pool: PoolName;
  queue: QueuedMessage[];
  active: ActiveTurn | undefined;
  waitingForSlot: boolean;
  lastArrival: number;
  /** Collect backlog waits until arrivals have been quiet for debounceMs. */
  debounceUntil: number;
  timer: TimerHandle | undefined;
  overflow: QueuedMessage[];
}

export function newLane(key: string): Lane {
  return {
    key,
    pool: poolForSessionKey(key),
    queue: [],
    active: undefined,
    waitingForSlot: false,
    lastArrival: 0,
    debounceUntil: 0,
    timer: undefined,
    overflow: [],
  };
}

/** The next batch: one message, or the whole run of `collect` messages at the head merged into one turn. */
export function takeBatch(lane: Lane): QueuedMessage[] {
  if (lane.queue[0]!.mode !== 'collect') return [lane.queue.shift()!];
  let end = 0;
  while (end < lane.queue.length && lane.queue[end]!.mode === 'collect') end += 1;
  return lane.queue.splice(0, end);
}
