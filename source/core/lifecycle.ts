import type { Logger } from '../config/index.js';

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
  /** Work that subscribes listeners in the background (hook discovery): every event waits for it. */
  readonly #barriers = new Set<() => Promise<void>>();
  #settling: Promise<void> | undefined;

  constructor(private readonly log: Logger) {}

  /**
   * Holds every event until `subscribe` has run: a service whose listeners
   * are known only after slow start-up work (reading HOOK.md files) does it
   * once the gateway listens, and an event emitted sooner — a message
   * accepted in the first milliseconds, a recovered turn — waits for those
   * listeners instead of running without them. `subscribe` is called at the
   * first event (or by its owner, earlier), must be idempotent, must not emit
   * events itself, and should not reject (a rejection is logged).
   */
  until(subscribe: () => Promise<void>): void {
    this.#barriers.add(subscribe);
  }

  on<E extends LifecycleEvent>(event: E, listener: LifecycleListener<E>): () => void {
    let set = this.#listeners.get(event);
    if (!set) this.#listeners.set(event, (set = new Set()));
    set.add(listener as LifecycleListener<never>);
    return () => set.delete(listener as LifecycleListener<never>);
  }

  /**
   * Whether anything listens: the gated paths skip their await when nothing
   * can block. While a barrier is pending the answer is yes, since it may
   * subscribe a listener that blocks.
   */
  has(event: LifecycleEvent): boolean {
    return this.#barriers.size > 0 || (this.#listeners.get(event)?.size ?? 0) > 0;
  }

  /**
   * Runs every listener in turn and returns what they answered. While a
   * barrier is pending, the listeners there already are run at once (one
   * that must act as the event happens, like aborting a replayed cron turn
   * before it runs, still does), and those the barrier subscribes run once it
   * has settled, before the returned promise resolves.
   */
  async emit<E extends LifecycleEvent>(event: E, payload: LifecycleEvents[E]): Promise<LifecycleVerdict[]> {
    const verdicts: LifecycleVerdict[] = [];
    const ran = [...(this.#listeners.get(event) ?? [])];
    const settling = this.#barriers.size > 0 ? this.#settle() : undefined;
    await this.#run(event, payload, ran, verdicts);
    if (!settling && this.#barriers.size === 0) return verdicts;
    await (this.#barriers.size > 0 ? this.#settle() : settling);
    const late = [...(this.#listeners.get(event) ?? [])].filter((listener) => !ran.includes(listener));
    await this.#run(event, payload, late, verdicts);
    return verdicts;
  }

  async #run<E extends LifecycleEvent>(
    event: E,
    payload: LifecycleEvents[E],
    listeners: readonly LifecycleListener<never>[],
    verdicts: LifecycleVerdict[],
  ): Promise<void> {
    for (const listener of listeners) {
      try {
        const answer = await (listener as LifecycleListener<E>)(payload);
        if (Array.isArray(answer)) verdicts.push(...(answer as readonly LifecycleVerdict[]));
        else if (answer) verdicts.push(answer as LifecycleVerdict);
      } catch (error) {
        this.log.warn(`a ${event} listener failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
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

  /** Runs the pending barriers at once; events emitted meanwhile share the one wait. */
  #settle(): Promise<void> {
    this.#settling ??= (async () => {
      const barriers = [...this.#barriers];
      const results = await Promise.allSettled(barriers.map(async (subscribe) => subscribe()));
      results.forEach((result, index) => {
        this.#barriers.delete(barriers[index]!);
        if (result.status === 'rejected')
          this.log.warn(`lifecycle listeners failed to subscribe: ${result.reason instanceof Error ? result.reason.message : String(result.reason)}`);
      });
      this.#settling = undefined;
      // A barrier added while these ran waits its turn.
      if (this.#barriers.size > 0) await this.#settle();
    })();
    return this.#settling;
  }
}
