import { classifyHttpError, classifyThrown } from './classify.js';
import { ProviderError } from './errors.js';
import type { SseMessage } from './sse.js';
import { readSse } from './sse.js';

/** Reasoning models can think silently for a while; two minutes without a byte is a stall. */
export const DEFAULT_IDLE_TIMEOUT_MS = 120_000;

export interface PostStreamOptions {
  url: string;
  headers: Record<string, string>;
  body: unknown;
  signal: AbortSignal | undefined;
  /** Longest silence (no response, no bytes) before the call fails as a network error. */
  idleTimeoutMs: number;
  model: string;
  profile: string;
}

/**
 * POSTs a JSON body and yields the SSE messages of a 2xx answer; any other
 * status, a dropped connection, a stalled stream or an abort becomes a
 * classified ProviderError.
 */
export async function* postSse(options: PostStreamOptions): AsyncGenerator<SseMessage> {
  const { model, profile, signal, idleTimeoutMs } = options;
  // A provider that stops sending without closing would otherwise hold the turn until its timeout.
  const idle = new AbortController();
  const timer = setTimeout(() => idle.abort(), idleTimeoutMs);
  // refresh() restarts the countdown without allocating a new timer per chunk.
  const arm = (): void => {
    timer.refresh();
  };
  const combined = signal ? AbortSignal.any([signal, idle.signal]) : idle.signal;
  const fail = (error: unknown): ProviderError =>
    idle.signal.aborted && !signal?.aborted
      ? new ProviderError('network', `${model}: no data from the provider for ${Math.round(idleTimeoutMs / 1000)}s. Try again.`, {
          model,
          profile,
          cause: error,
        })
      : classifyThrown(error, signal, model, profile);

  let response: Response;
  try {
    response = await fetch(options.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...options.headers },
      body: JSON.stringify(options.body),
      signal: combined,
    });
  } catch (error) {
    clearTimeout(timer);
    throw fail(error);
  }
  if (!response.ok || response.body === null) {
    const bodyText = await response.text().catch(() => '');
    clearTimeout(timer);
    throw classifyHttpError({ status: response.status, headers: response.headers, bodyText, model, profile, now: Date.now() });
  }
  const body = response.body;
  async function* watched(): AsyncGenerator<Uint8Array> {
    for await (const chunk of body) {
      arm();
      yield chunk;
    }
  }
  try {
    yield* readSse(watched());
  } catch (error) {
    throw fail(error);
  } finally {
    clearTimeout(timer);
    // Stops the download when the consumer leaves early (abort, failover, break).
    await body.cancel().catch(() => undefined);
  }
}
