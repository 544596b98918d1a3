import type { Logger } from '../config/index.js';
import type { AgentEventPayload, ChatEventPayload } from '../protocol/index.js';
import type { TurnEmitter } from '../queue/index.js';
import type { MessageOutcome, OutcomeListener, TurnEventName, TurnEvents, TurnsPort } from './ports.js';

/** What the agent runtime streams for one turn, before anything is serialised. */
export type RuntimeTurnEvent =
  | { event: 'chat'; payload: ChatEventPayload; background: boolean }
  | { event: 'agent'; payload: AgentEventPayload; background: boolean };

type AnyListener = (payload: never) => void;

/**
 * The `turns` port: the runtime's stream of a turn becomes typed events here,
 * once, for in-process subscribers (channels, hooks, schedule, subagents);
 * clients get the same stream through `onRuntime`, which the core wires to
 * the wire event bus. Outcomes go to the listener of the message's origin.
 */
export class TurnHub implements TurnsPort {
  readonly #listeners = new Map<TurnEventName, Set<AnyListener>>();
  readonly #outcomes = new Map<string, OutcomeListener[]>();
  readonly #runtime = new Set<(event: RuntimeTurnEvent) => void>();

  constructor(private readonly log: Pick<Logger, 'warn'>) {}

  on<E extends TurnEventName>(event: E, listener: (payload: TurnEvents[E]) => void): () => void {
    let set = this.#listeners.get(event);
    if (!set) this.#listeners.set(event, (set = new Set()));
    set.add(listener as AnyListener);
    return () => set.delete(listener as AnyListener);
  }

  onOutcome(origin: string, listener: OutcomeListener): () => void {
    const stack = this.#outcomes.get(origin) ?? [];
    stack.push(listener);
    this.#outcomes.set(origin, stack);
    return () => {
      const at = stack.indexOf(listener);
      if (at >= 0) stack.splice(at, 1);
    };
  }

  /** Whether some service hears the outcomes of messages from `origin` (else the reply is a delivery). */
  hasOutcomeListener(origin: string): boolean {
    return (this.#outcomes.get(origin)?.length ?? 0) > 0;
  }

  /** Tells the origin's listener how a message ended; its failure is logged, never thrown. */
  async outcome(origin: string, outcome: MessageOutcome): Promise<void> {
    const listener = this.#outcomes.get(origin)?.at(-1);
    if (!listener) return;
    try {
      await listener(outcome);
    } catch (error) {
      this.log.warn(`the ${origin} outcome listener failed for ${outcome.messageId}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** The serialising side (the gateway's event bus) hears the runtime's stream as it is. */
  onRuntime(listener: (event: RuntimeTurnEvent) => void): () => void {
    this.#runtime.add(listener);
    return () => this.#runtime.delete(listener);
  }

  /** The lanes' emitter: every runtime event of a turn enters here. */
  readonly emitter: TurnEmitter = ((event: 'chat' | 'agent', payload: ChatEventPayload | AgentEventPayload, background = false) => {
    const record = { event, payload, background } as RuntimeTurnEvent;
    for (const listener of this.#runtime) listener(record);
    this.#type(record);
  }) as TurnEmitter;

  #type(record: RuntimeTurnEvent): void {
    const { background } = record;
    if (record.event === 'chat') {
      const chat = record.payload;
      if (chat.state === 'delta') this.#emit('turn.delta', { sessionKey: chat.sessionKey, runId: chat.runId, background, delta: chat.delta });
      return;
    }
    const agent = record.payload;
    const base = { sessionKey: agent.sessionKey, runId: agent.runId, background };
    if (agent.stream === 'tool') {
      this.#emit('turn.tool', { ...base, tool: agent.name, phase: agent.phase, ...(agent.isError !== undefined ? { isError: agent.isError } : {}) });
      return;
    }
    if (agent.stream !== 'lifecycle') return;
    if (agent.phase === 'start') this.#emit('turn.start', { ...base, ...(agent.model ? { model: agent.model } : {}) });
    else if (agent.phase === 'end' || agent.phase === 'error' || agent.phase === 'aborted') this.#emit('turn.end', { ...base, status: agent.phase });
  }

  #emit<E extends TurnEventName>(event: E, payload: TurnEvents[E]): void {
    const set = this.#listeners.get(event);
    if (!set) return;
    for (const listener of set) {
      try {
        (listener as (p: TurnEvents[E]) => void)(payload);
      } catch (error) {
        this.log.warn(`a ${event} listener failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
}
