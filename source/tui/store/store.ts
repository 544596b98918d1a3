import { events, isEventName, type EventName, type PayloadOf } from '../../protocol/index.js';
import { trackApprovalShown } from './approval-guard.js';
import { trackElicitationShown } from './elicitation.js';
import { reduceEvent } from './event-table.js';
import type { TuiState } from './state.js';

export interface StoreOptions {
  /** Minimum ms between notifications: streaming deltas coalesce into ≤ 1000/frameMs frames per second. */
  frameMs?: number;
  now?: () => number;
}

/**
 * The one store the panes read. Updates apply at once; subscribers are told at
 * most once per frame, so a burst of deltas costs one render.
 */
export class TuiStore {
  private state: TuiState;
  private readonly listeners = new Set<() => void>();
  private timer: NodeJS.Timeout | undefined;
  private lastNotify = 0;
  private readonly frameMs: number;
  readonly now: () => number;

  constructor(initial: TuiState, options: StoreOptions = {}) {
    this.state = initial;
    this.frameMs = options.frameMs ?? 33;
    this.now = options.now ?? Date.now;
  }

  getState = (): TuiState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  update(change: (state: TuiState) => TuiState): void {
    const changed = change(this.state);
    if (changed === this.state) return;
    const next = trackElicitationShown(trackApprovalShown(changed, this.now()), this.now());
    this.state = next;
    this.schedule();
  }

  /** Validates an event at the boundary and reduces it; unknown or malformed events are ignored. */
  applyEvent(event: string, payload: unknown): void {
    if (!isEventName(event)) return;
    const parsed = events[event].payload.safeParse(payload);
    if (!parsed.success) return;
    this.update((state) => reduceEvent(state, event as EventName, parsed.data as PayloadOf<EventName>, this.now()));
  }

  /** Tells subscribers now (used on exit and by tests). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.lastNotify = Date.now();
    for (const listener of this.listeners) listener();
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.listeners.clear();
  }

  private schedule(): void {
    if (this.timer) return;
    const wait = Math.max(0, this.lastNotify + this.frameMs - Date.now());
    this.timer = setTimeout(() => this.flush(), wait);
  }
}
