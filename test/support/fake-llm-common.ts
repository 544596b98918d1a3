import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted tool call; `arguments` as an object, or raw text to test malformed JSON. */
export interface FakeToolCall {
  id?: string;
  name: string;
  arguments: Record<string, unknown> | string;
}

/** A successful streamed reply. */
export interface FakeStreamReply {
  text?: string;
  thinking?: string;
  /** Anthropic only: a `redacted_thinking` block with this opaque data, before any thinking. */
  redactedThinking?: string;
  toolCalls?: FakeToolCall[];
  /** Default: `toolUse` when there are tool calls, else `stop`. */
  stopReason?: 'stop' | 'toolUse' | 'length';
  /** Default: input ≈ request bytes / 4, output ≈ reply chars / 4. */
  usage?: { input: number; output: number; cacheRead?: number };
  /** Characters per text/thinking/argument delta (default 8). */
  chunkSize?: number;
  /** Pause before each SSE message, for slow streams. */
  delayMs?: number;
  /** Destroy the socket after this many SSE messages (mid-stream disconnect). */
  disconnectAfter?: number;
  /**
   * After the first text delta (at once when there is no text; on Anthropic,
   * after the first thinking delta when there is thinking but no text), keep
   * the stream open until the client goes away: abort and stall tests.
   */
  hang?: boolean;
  /**
   * After the opening message (OpenAI's role chunk, Anthropic's
   * message_start), send only keep-alives at this interval (an SSE comment;
   * Anthropic's `ping` event) until the client goes away: a wedged provider.
   */
  keepAliveEveryMs?: number;
  /** Send the provider's in-stream error event after the text instead of finishing. */
  streamError?: FakeErrorName;
}

export type FakeErrorName = 'auth' | 'rate_limit' | 'overloaded' | 'server' | 'context_length' | 'billing' | 'not_found';

/** An HTTP error in the provider's own shape (status, error type, Retry-After). */
export interface FakeErrorReply {
  error: FakeErrorName;
  /** Seconds, sent as the `retry-after` header. */
  retryAfter?: number;
  message?: string;
}

/** Anything else: an exact status, headers and body. */
export interface FakeRawReply {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

export type FakeReply = FakeStreamReply | FakeErrorReply | FakeRawReply;
/** Decide the reply from the request (for tests whose conversation length is not fixed). */
export type FakeResponder = (request: RecordedRequest) => FakeReply;

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** The parsed JSON body (`{}` if it was not JSON). */
  body: Record<string, unknown>;
  rawBody: string;
}

export interface FakeLlmServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** What to put in `models.providers.<name>.baseUrl`. */
  baseUrl: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Queue replies, used one per request in order. */
  reply(...replies: (FakeReply | FakeResponder)[]): void;
  /** The reply when the queue is empty (default: HTTP 500 saying nothing was scripted). */
  setDefault(reply: FakeReply | FakeResponder): void;
  /** Scripted replies not yet used. */
  pending(): number;
  /** Resolves once `count` requests have arrived (polls; rejects after `timeoutMs`). */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  /** The ids the model-list endpoints answer with (GET, never queued; default none). */
  setModels(ids: readonly string[]): void;
  /** Model-list requests, kept apart from `requests` so status checks do not shift scripted counts. */
  listings: RecordedRequest[];
  /** The 400 messages of requests the real API would have refused (strict-wire.ts), in order. */
  refusals: string[];
  /** Refuse every request whose key is not this one with the provider's real 401 (Bearer or x-api-key). */
  requireKey(key: string): void;
  close(): Promise<void>;
}

/** GET paths (without query) that list models, and the body each answers with. */
export type ModelListRoutes = Record<string, (ids: readonly string[]) => unknown>;

/** Writes SSE frames with the scripted pacing and failure behaviour. */
export class SseWriter {
  private sent = 0;
  closed = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly reply: FakeStreamReply,
  ) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.on('close', () => {
      this.closed = true;
    });
  }

  /** False once the stream has ended (disconnect or client gone): stop writing. */
  async send(data: string, event?: string): Promise<boolean> {
    if (this.closed) return false;
    if (this.reply.delayMs) await new Promise((resolve) => setTimeout(resolve, this.reply.delayMs));
    if (this.closed) return false;
    if (this.reply.disconnectAfter !== undefined && this.sent >= this.reply.disconnectAfter) {
      this.closed = true;
      this.res.socket?.destroy();
      return false;
    }
    // Wait for the bytes to reach the socket, so a scripted disconnect right after cannot swallow them.
    await new Promise<void>((resolve) => this.res.write(`${event ? `event: ${event}\n` : ''}data: ${data}\n\n`, () => resolve()));
    this.sent += 1;
    return true;
  }

  /** Keeps the response open until the client disconnects. */
  async hangUntilClosed(): Promise<void> {
    while (!this.closed) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  /** Writes `frame` every `everyMs` until the client disconnects. */
  async keepAliveUntilClosed(frame: string, everyMs: number): Promise<void> {
    while (!this.closed) {
      this.res.write(frame);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  }

  end(): void {
    if (!this.closed) this.res.end();
  }
}

export function splitText(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

export function defaultUsage(request: RecordedRequest, reply: FakeStreamReply): { input: number; output: number; cacheRead?: number } {
  if (reply.usage) return reply.usage;
  const args = (reply.toolCalls ?? []).map((call) => (typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments))).join('');
  return { input: Math.ceil(request.rawBody.length / 4), output: Math.ceil(((reply.text ?? '').length + (reply.thinking ?? '').length + args.length) / 4) + 1 };
}

export function isErrorReply(reply: FakeReply): reply is FakeErrorReply {
  return 'error' in reply;
}

export function isRawReply(reply: FakeReply): reply is FakeRawReply {
  return 'status' in reply && 'body' in reply;
}

export type FakeRenderer = (reply: FakeReply, request: RecordedRequest, res: ServerResponse) => Promise<void>;

/**
 * What the real API refuses in a request body: the API's own 400 message, or
 * undefined when the real API would take it (strict-wire.ts).
 */
export interface WireRules {
  refusal(body: Record<string, unknown>): string | undefined;
  /** The 400 the API answers with for that message. */
  render(message: string): FakeRawReply;
}

/** The HTTP server, request log and reply queue both fake providers share. */
export async function startFakeLlmServer(options: {
  basePath: string;
  render: FakeRenderer;
  listRoutes?: ModelListRoutes;
  rules?: WireRules;
}): Promise<FakeLlmServer> {
  const requests: RecordedRequest[] = [];
  const listings: RecordedRequest[] = [];
  const refusals: string[] = [];
  let models: readonly string[] = [];
  let key: string | undefined;
  const keyOf = (headers: Record<string, string>): string | undefined => headers['x-api-key'] || headers.authorization?.replace(/^Bearer\s+/i, '');
  const queue: (FakeReply | FakeResponder)[] = [];
  let fallback: FakeReply | FakeResponder | undefined;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> = {};
      try {
        const parsed: unknown = JSON.parse(rawBody);
        if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
      } catch {
        // recorded as {}; tests see rawBody
      }
      const headers = Object.fromEntries(Object.entries(req.headers).map(([key, value]) => [key, Array.isArray(value) ? value.join(', ') : (value ?? '')]));
      const recorded: RecordedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers, body, rawBody };
      const list = recorded.method === 'GET' ? options.listRoutes?.[recorded.path.split('?')[0] ?? ''] : undefined;
      (list ? listings : requests).push(recorded);
      if (key !== undefined && keyOf(headers) !== key) {
        options.render({ error: 'auth' }, recorded, res).catch(() => res.socket?.destroy());
        return;
      }
      if (list) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(list(models)));
        return;
      }
      // Refused as the real API refuses it, before any scripted reply is used up.
      const refusal = recorded.method === 'POST' ? options.rules?.refusal(body) : undefined;
      if (refusal !== undefined) {
        refusals.push(refusal);
        options.render(options.rules!.render(refusal), recorded, res).catch(() => res.socket?.destroy());
        return;
      }
      const next = queue.shift() ?? fallback;
      const reply: FakeReply =
        next === undefined
          ? {
              status: 500,
              body: JSON.stringify({
                error: { type: 'fake_unscripted', message: `fake server: no scripted reply for request #${requests.length} (${recorded.path})` },
              }),
            }
          : typeof next === 'function'
            ? next(recorded)
            : next;
      options.render(reply, recorded, res).catch(() => res.socket?.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    baseUrl: `${url}${options.basePath}`,
    requests,
    reply: (...replies) => {
      queue.push(...replies);
    },
    setDefault: (reply) => {
      fallback = reply;
    },
    pending: () => queue.length,
    listings,
    refusals,
    setModels: (ids) => {
      models = [...ids];
    },
    requireKey: (required) => {
      key = required;
    },
    async waitForRequests(count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        if (Date.now() > deadline) throw new Error(`fake server: expected ${count} requests, got ${requests.length}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
