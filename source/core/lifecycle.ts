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
  'tool:before': { sessionKey: string; runId: string; tool: string; args: Record<string, unknown> };
  'tool:after': { sessionKey: string; runId: string; tool: string; isError: boolean };
}

export type LifecycleEvent = keyof LifecycleEvents;

/**
 * What a listener may answer. `block` counts only for the gated events
 * (`tool:before`, `message:received`); `bootstrap` only for `agent:bootstrap`.
 */
export interface LifecycleVerdict {
  block?: boolean;
  reason?: string;
  bootstrap?: string;
  /** Who answered (a hook's name), for the reason shown and the context report. */
  source?: string;
}

export type GatedEvent = 'tool:before' | 'message:received';
// biome-ignore lint/suspicious/noConfusingVoidType: a listener that returns nothing is the common case and must type-check
type ListenerAnswer = void | LifecycleVerdict | readonly LifecycleVerdict[];
export type LifecycleListener<E extends LifecycleEvent> = (payload: LifecycleEvents[E]) => ListenerAnswer | Promise<ListenerAnswer>;

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

  /** Whether anything listens: the gated paths skip their await when nothing can block. */
  has(event: LifecycleEvent): boolean {
    return (this.#listeners.get(event)?.size ?? 0) > 0;
  }

  /** Runs every listener in turn and returns what they answered. */
  async emit<E extends LifecycleEvent>(event: E, payload: LifecycleEvents[E]): Promise<LifecycleVerdict[]> {
    const set = this.#listeners.get(event);
    if (!set) return [];
    const verdicts: LifecycleVerdict[] = [];
    for (const listener of [...set]) {
      try {
        const answer = await (listener as LifecycleListener<E>)(payload);
        if (Array.isArray(answer)) verdicts.push(...(answer as readonly LifecycleVerdict[]));
        else if (answer) verdicts.push(answer as LifecycleVerdict);
      } catch (error) {
        this.log.warn(`a ${event} listener failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return verdicts;
  }

  /**
   * For the events a listener may veto: the first block wins and its reason
   * (with who gave it) comes back; undefined lets the action go on.
   */
  async gate<E extends GatedEvent>(event: E, payload: LifecycleEvents[E]): Promise<{ reason: string } | undefined> {
    if (!this.has(event)) return undefined;
    const blocked = (await this.emit(event, payload)).find((verdict) => verdict.block);
    if (!blocked) return undefined;
    const reason = blocked.reason ?? 'no reason given';
    return { reason: blocked.source ? `${blocked.source}: ${reason}` : reason };
  }

  /** Text listeners add to a turn's bootstrap context, each with its source. */
  async bootstrapText(payload: LifecycleEvents['agent:bootstrap']): Promise<Array<{ source: string; text: string }>> {
    if (!this.has('agent:bootstrap')) return [];
    return (await this.emit('agent:bootstrap', payload)).flatMap((verdict) =>
      verdict.bootstrap ? [{ source: verdict.source ?? 'hook', text: verdict.bootstrap }] : [],
    );
  }
}
