import type { Logger } from './logger.js';

/** The daemon's own events (SPEC "Hooks"), with what each carries. */
export interface LifecycleEvents {
  'gateway:startup': { port?: number };
  'gateway:shutdown': { reason: string };
  'command:new': { sessionKey: string };
  'command:reset': { sessionKey: string };
  'command:stop': { sessionKey: string };
  'session:compact:before': { sessionKey: string };
  'session:compact:after': { sessionKey: string; tokensBefore?: number; tokensAfter?: number };
  'agent:bootstrap': { sessionKey: string; agentId: string };
  'message:received': { sessionKey: string; messageId: string; channel: string; text: string; senderId?: string };
  'message:sent': { sessionKey: string; runId: string; channel: string; text: string };
  'turn:start': { sessionKey: string; runId: string };
  'turn:end': { sessionKey: string; runId: string; status: string };
  'tool:before': { sessionKey: string; runId: string; tool: string };
  'tool:after': { sessionKey: string; runId: string; tool: string; isError: boolean };
}

export type LifecycleEvent = keyof LifecycleEvents;
export type LifecycleListener<E extends LifecycleEvent> = (payload: LifecycleEvents[E]) => void | Promise<void>;

/**
 * A typed in-process emitter for lifecycle events. `emit` awaits every
 * listener, so a reaction that must finish first (save the conversation before
 * a reset) can; a listener that throws is logged and never breaks the caller.
 */
export class Lifecycle {
  readonly #listeners = new Map<LifecycleEvent, Set<LifecycleListener<never>>>();

  constructor(private readonly log: Logger) {}

  on<E extends LifecycleEvent>(event: E, listener: LifecycleListener<E>): () => void {
    let set = this.#listeners.get(event);
    if (!set) this.#listeners.set(event, (set = new Set()));
    set.add(listener as LifecycleListener<never>);
    return () => set.delete(listener as LifecycleListener<never>);
  }

  async emit<E extends LifecycleEvent>(event: E, payload: LifecycleEvents[E]): Promise<void> {
    const set = this.#listeners.get(event);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        await (listener as LifecycleListener<E>)(payload);
      } catch (error) {
        this.log.warn(`a ${event} listener failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
}
