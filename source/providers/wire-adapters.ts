import { streamAnthropic } from './anthropic.js';
import { ProviderError } from './errors.js';
import { streamOpenAI } from './openai.js';
import type { ProviderEvent, WireRequest } from './types.js';

/** Speaks one API: one model call, streamed as provider events. */
export type WireAdapter = (request: WireRequest) => AsyncIterable<ProviderEvent>;

/** The built-in wire formats, by the `api` a model names (README.md: adding one). */
export const WIRE_ADAPTERS: Readonly<Record<string, WireAdapter>> = {
  openai: streamOpenAI,
  anthropic: streamAnthropic,
};

/** The adapter for a model's API: the built-ins, then any added by `createProviders({ adapters })`. */
export function wireAdapterFor(api: string, extra: Readonly<Record<string, WireAdapter>> = {}): WireAdapter {
  const adapter = extra[api] ?? WIRE_ADAPTERS[api];
  if (!adapter) {
    const known = [...Object.keys(WIRE_ADAPTERS), ...Object.keys(extra)].join(', ');
    throw new ProviderError('not_configured', `No wire adapter speaks the API "${api}". Known: ${known}.`);
  }
  return adapter;
}
