import { ContextWindow } from '../compaction/context-window.js';
import type { ContextEngine, ContextEngineOptions } from './engine.js';
import { RecallEngine } from './recall-engine.js';

export type ContextEngineFactory = (options: ContextEngineOptions) => ContextEngine;

/** The engines a turn can use, by the name `agents.defaults.contextEngine` gives (README.md: adding one). */
export const CONTEXT_ENGINES: Readonly<Record<string, ContextEngineFactory>> = {
  default: (options) => new ContextWindow(options),
  recall: (options) => new RecallEngine(options, options.recall ?? { share: 0.25, maxExchanges: 8 }),
};

/** The factory for a configured engine name; an unknown one is an error that lists the known ones. */
export function contextEngineFactory(name: string, extra: Readonly<Record<string, ContextEngineFactory>> = {}): ContextEngineFactory {
  const factory = extra[name] ?? CONTEXT_ENGINES[name];
  if (!factory) {
    const known = [...Object.keys(CONTEXT_ENGINES), ...Object.keys(extra)].join(', ');
    throw new Error(
      `agents.defaults.contextEngine is "${name}", which is not a context engine. Known: ${known}. Fix it with \`claw config set agents.defaults.contextEngine default\`.`,
    );
  }
  return factory;
}
