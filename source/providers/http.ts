import { request as httpRequest, type IncomingMessage, type IncomingHttpHeaders } from 'node:http';
import { createRequire } from 'node:module';
import { classifyHttpError, classifyThrown } from './classify.js';
import { jsonBytes } from './json-bytes.js';
import { ProviderError } from './errors.js';
import type { SseMessage } from './sse.js';
import { readSse } from './sse.js';

// node:https (with tls under it) takes ~8 ms to load; a local model never needs it, so it loads on the first https:// call.
const requireBuiltin = createRequire(import.meta.url);

/**
 * A minute without data is a stall: long enough for a reasoning model's
 * first token, short enough that a wedged provider costs one session a few
 * minutes rather than ten.
 */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

export interface PostStreamOptions {
  url: string;
  headers: Record<string, string>;
  /** The JSON body: a value to serialise, or its UTF-8 bytes already. */
  body: unknown;
  signal: AbortSignal | undefined;
  /**
   * Longest time without data (no response, no SSE message other than a
   * keep-alive) before the call fails as a network error.
   */
  idleTimeoutMs: number;
  model: string;
  profile: string;
}

/** Anthropic's `ping` event; comment lines (`: keep-alive`) never leave readSse. */
function isKeepAlive(message: SseMessage): boolean {
  return message.event === 'ping';
}

/**
 * POSTs a JSON body and yields the SSE messages of a 2xx answer; any other
 * status, a dropped connection, a stalled stream or an abort becomes a
 * classified ProviderError. Keep-alives are swallowed and do not count as
 * data: a provider that only keeps the connection open fails after
 * `idleTimeoutMs` like a silent one, marked `keepAliveOnly`.
 */
export async function* postSse(options: PostStreamOptions): AsyncGenerator<SseMessage> {
  const { model, profile, signal, idleTimeoutMs } = options;
  // A provider that stops sending without closing would otherwise hold the turn until its timeout.
  const idle = new AbortController();
  const timer = setTimeout(() => idle.abort(), idleTimeoutMs);
  // refresh() restarts the countdown without allocating a new timer per message.
  const arm = (): void => {
    timer.refresh();
  };
  // Bytes arrived since the last data, so they were keep-alives: a provider
  // that holds the connection open while producing nothing.
  let keptAlive = false;
  const combined = signal ? AbortSignal.any([signal, idle.signal]) : idle.signal;
  const seconds = Math.round(idleTimeoutMs / 1000);
  const fail = (error: unknown): ProviderError => {
    if (!idle.signal.aborted || signal?.aborted) return classifyThrown(error, signal, model, profile);
    const message = keptAlive
      ? `${model}: the provider sent only keep-alives for ${seconds}s. Try again.`
      : `${model}: no data from the provider for ${seconds}s. Try again.`;
    return new ProviderError('network', message, { model, profile, keepAliveOnly: keptAlive, stalled: true, cause: error });
  };

  let response: IncomingMessage;
  try {
    response = await post(options.url, { accept: 'text/event-stream', ...options.headers }, options.body, combined);
  } catch (error) {
    clearTimeout(timer);
    throw fail(error);
  }
  const status = response.statusCode ?? 0;
  if (status < 200 || status > 299) {
    const bodyText = await readText(response).catch(() => '');
    clearTimeout(timer);
    throw classifyHttpError({ status, headers: headersOf(response.headers), bodyText, model, profile, now: Date.now() });
  }
  const body = response;
  // An abort after the headers must end the download too, not only the request.
  const stop = (): void => {
    body.destroy(combined.reason instanceof Error ? combined.reason : new Error('aborted'));
  };
  combined.addEventListener('abort', stop, { once: true });
  // The answer's headers are data; from here on only non-keep-alive messages are.
  arm();
  async function* watched(): AsyncGenerator<Uint8Array> {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      keptAlive = true;
      yield chunk;
    }
  }
  try {
    for await (const message of readSse(watched())) {
      if (isKeepAlive(message)) continue;
      keptAlive = false;
      arm();
      yield message;
    }
  } catch (error) {
    throw fail(error);
  } finally {
    clearTimeout(timer);
    combined.removeEventListener('abort', stop);
    // Stops the download when the consumer leaves early (abort, failover, break); a body read to its end keeps the connection.
    body.destroy();
  }
}

/**
 * One POST with node's own client rather than fetch: for a 200 kB prompt,
 * fetch's body conversions (USV string check, encode, web streams) cost
 * about as much CPU as everything else in a turn. The default agents keep
 * connections alive, as fetch's pool does.
 */
function post(url: string, headers: Record<string, string>, body: unknown, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error(`unsupported protocol ${target.protocol} in ${url}`);
    const data = body instanceof Uint8Array ? body : jsonBytes(body);
    const send = target.protocol === 'https:' ? (requireBuiltin('node:https') as typeof import('node:https')).request : httpRequest;
    const request = send(
      target,
      { method: 'POST', signal, headers: { 'content-type': 'application/json', 'user-agent': 'claw', ...headers, 'content-length': String(data.length) } },
      resolve,
    );
    request.on('error', reject);
    request.end(data);
  });
}

async function readText(response: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of response as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

function headersOf(raw: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}
