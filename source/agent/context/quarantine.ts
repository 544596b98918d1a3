import { ContextOverflow, type ContextEngine } from './engine.js';

/** Engines that threw in this process, with what they threw: the default stands in for them until a restart. */
export class EngineQuarantine {
  readonly #failed = new Map<string, string>();

  has(id: string): boolean {
    return this.#failed.has(id);
  }

  add(id: string, error: unknown): string {
    const reason = error instanceof Error ? error.message : String(error);
    this.#failed.set(id, reason);
    return reason;
  }
}

/**
 * An engine whose every call falls back to `fallback` once it throws: the
 * engine is quarantined for the process, `onQuarantine` tells the owner, and
 * the call is answered by the default engine — a turn never fails because
 * an engine did. Aborts are not failures and pass through.
 */
export function guardedEngine(
  engine: ContextEngine,
  fallback: () => ContextEngine,
  quarantine: EngineQuarantine,
  onQuarantine: (id: string, reason: string) => void,
  signal?: AbortSignal,
): ContextEngine {
  let current = engine;
  let replaced = false;
  const replace = (error: unknown): ContextEngine => {
    // An abort, or a window that cannot fit the call, is an answer, not a broken engine.
    if (signal?.aborted || error instanceof ContextOverflow) throw error;
    if (!replaced) {
      replaced = true;
      onQuarantine(engine.info.id, quarantine.add(engine.info.id, error));
      current = fallback();
    }
    return current;
  };
  const sync =
    <A extends unknown[], R>(call: (target: ContextEngine, ...args: A) => R) =>
    (...args: A): R => {
      try {
        return call(current, ...args);
      } catch (error) {
        return call(replace(error), ...args);
      }
    };
  const async =
    <A extends unknown[], R>(call: (target: ContextEngine, ...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await call(current, ...args);
      } catch (error) {
        return call(replace(error), ...args);
      }
    };
  return {
    get info() {
      return current.info;
    },
    get window() {
      return current.window;
    },
    ingest: sync((target, content: string, toolName: string) => target.ingest(content, toolName)),
    assemble: sync((target, messages: Parameters<ContextEngine['assemble']>[0]) => target.assemble(messages)),
    beforeModelCall: async((target) => target.beforeModelCall()),
    recoverOverflow: async((target) => target.recoverOverflow()),
    compact: async((target, request?: Parameters<ContextEngine['compact']>[0]) => target.compact(request)),
    afterTurn: async((target) => target.afterTurn()),
    report: async((target) => target.report()),
  };
}
