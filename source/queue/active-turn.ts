import type { AgentEventPayload, ChatEventPayload } from '../protocol/index.js';
import type { Clock, TimerHandle } from '../config/index.js';
import type { QueuedMessage, SessionHandle, TurnContext } from './turn-runner.js';

/** `background`: the turn answers only background messages (heartbeat, cron), so clients must not show it as chat. */
export interface TurnEmitter {
  (event: 'chat', payload: ChatEventPayload, background?: boolean): void;
  (event: 'agent', payload: AgentEventPayload, background?: boolean): void;
}

/** The global slot of a running turn, as the lane lends it out and takes it back. */
export interface TurnSlot {
  release(): void;
  /** Resolves once the slot is held again (at once if the turn has ended meanwhile). */
  reacquire(): Promise<void>;
}

/** A running turn: its messages, abort controller, steer buffer and watchdog state. */
export class ActiveTurn {
  readonly controller = new AbortController();
  readonly startedAt: number;
  /** Started for background messages only (heartbeat, cron): nothing of it is broadcast as chat. Read on every streamed delta. */
  readonly background: boolean;
  lastProgress: number;
  /** Steered messages handed to the runner; they share this turn's outcome. */
  readonly taken: QueuedMessage[] = [];
  /** Steered messages not yet taken; they become the next turn if the runner never takes them. */
  readonly steered: QueuedMessage[] = [];
  watchdog: TimerHandle | undefined;
  /** False while the turn has lent its global slot out (outsideSlot). */
  holdsSlot = true;
  /** The pending request to take the slot back, while one is queued. */
  resume: { owner: string; settle(): void } | undefined;
  finished = false;
  finalSent = false;
  session: SessionHandle | undefined;

  constructor(
    readonly runId: string,
    readonly sessionKey: string,
    readonly agentId: string,
    public messages: readonly QueuedMessage[],
    private readonly clock: Clock,
  ) {
    this.background = messages.every((message) => message.background === true);
    this.startedAt = clock.now();
    this.lastProgress = this.startedAt;
  }

  /** Every message this turn answers, in the order they arrived. */
  answered(): QueuedMessage[] {
    return [...this.messages, ...this.taken];
  }

  context(session: SessionHandle, emit: TurnEmitter, onSteerTaken: (messages: QueuedMessage[]) => void, slot: TurnSlot): TurnContext {
    const progress = (): void => {
      this.lastProgress = this.clock.now();
    };
    const turnEmit = ((event: 'chat' | 'agent', payload: ChatEventPayload | AgentEventPayload) => {
      if (this.finished) return;
      progress();
      if (event === 'chat' && (payload as ChatEventPayload).state === 'final') this.finalSent = true;
      (emit as (e: string, p: unknown, b: boolean) => void)(event, payload, this.background);
    }) as TurnContext['emit'];
    return {
      runId: this.runId,
      sessionKey: this.sessionKey,
      agentId: this.agentId,
      messages: this.messages,
      signal: this.controller.signal,
      session,
      progress,
      emit: turnEmit,
      hasSteered: () => !this.finished && this.steered.length > 0,
      outsideSlot: async <T>(wait: () => Promise<T>): Promise<T> => {
        if (this.finished || !this.holdsSlot) return wait();
        slot.release();
        try {
          return await wait();
        } finally {
          await slot.reacquire();
        }
      },
      takeSteered: () => {
        if (this.finished) return [];
        const drained = this.steered.splice(0);
        this.taken.push(...drained);
        if (drained.length > 0) onSteerTaken(drained);
        return drained;
      },
    };
  }
}
