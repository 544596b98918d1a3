import { classifyHttpError, classifyThrown } from './classify.js';
import type { SseMessage } from './sse.js';
import { readSse } from './sse.js';

export interface PostStreamOptions {
  url: string;
  headers: Record<string, string>;
  body: unknown;
  signal: AbortSignal | undefined;
  model: string;
  profile: string;
}

/**
 * POSTs a JSON body and yields the SSE messages of a 2xx answer; any other
 * status, a dropped connection or an abort becomes a classified ProviderError.
 */
export async function* postSse(options: PostStreamOptions): AsyncGenerator<SseMessage> {
  const { model, profile, signal } = options;
  let response: Response;
  try {
    response = await fetch(options.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...options.headers },
      body: JSON.stringify(options.body),
      signal: signal ?? null,
    });
  } catch (error) {
    throw classifyThrown(error, signal, model, profile);
  }
  if (!response.ok || response.body === null) {
    const bodyText = await response.text().catch(() => '');
    throw classifyHttpError({ status: response.status, headers: response.headers, bodyText, model, profile, now: Date.now() });
  }
  try {
    yield* readSse(response.body);
  } catch (error) {
    throw classifyThrown(error, signal, model, profile);
  } finally {
    // Stops the download when the consumer leaves early (abort, failover, break).
    await response.body.cancel().catch(() => undefined);
  }
}
