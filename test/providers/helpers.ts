import { configSchema, type ClawConfigInput } from '../../source/config/index.js';
import type { Clock, TimerHandle } from '../../source/config/index.js';
import { createProviders, type FailoverPolicy, type ProviderEvent, type Providers, type TurnRequest } from '../../source/providers/index.js';
import type { TempState } from '../support/temp-state.js';

/** A clock whose sleep returns at once and records the requested delays. */
export function fakeClock(start = 1_700_000_000_000): Clock & { sleeps: number[]; advance(ms: number): void } {
  let now = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
    // A retry's wait passes at once: time jumps ahead and the timer fires on the next tick.
    setTimer: (callback, ms): TimerHandle => {
      sleeps.push(ms);
      now += ms;
      queueMicrotask(callback);
      return { id: sleeps.length };
    },
    clearTimer: () => undefined,
  };
}

export function makeProviders(
  state: TempState,
  config: ClawConfigInput,
  options: { env?: NodeJS.ProcessEnv; clock?: Clock; policy?: Partial<FailoverPolicy> } = {},
): Providers {
  return createProviders({
    config: configSchema.parse(config),
    paths: state.paths,
    env: options.env ?? { OLLAMA_HOST: '127.0.0.1:9' },
    clock: options.clock ?? fakeClock(),
    random: () => 0.5,
    ...(options.policy ? { policy: options.policy } : {}),
  });
}

export async function collect(stream: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const events: ProviderEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** Runs a call and returns the events seen before it threw, plus the error. */
export async function collectUntilError(stream: AsyncIterable<ProviderEvent>): Promise<{ events: ProviderEvent[]; error: unknown }> {
  const events: ProviderEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
  } catch (error) {
    return { events, error };
  }
  return { events, error: undefined };
}

export function textOf(events: ProviderEvent[]): string {
  return events.flatMap((e) => (e.type === 'text_delta' ? [e.text] : [])).join('');
}

export function doneOf(events: ProviderEvent[]): Extract<ProviderEvent, { type: 'done' }> {
  const done = events.find((e): e is Extract<ProviderEvent, { type: 'done' }> => e.type === 'done');
  if (!done) throw new Error(`no done event in ${JSON.stringify(events)}`);
  return done;
}

export function baseRequest(model: string, overrides: Partial<TurnRequest> = {}): TurnRequest {
  return { model, system: 'You are a test.', messages: [{ role: 'user', content: 'hello' }], tools: [], thinking: 'off', ...overrides };
}

export const readTool = {
  name: 'read',
  description: 'Read a file',
  parameters: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};
