import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the next request gets instead of vectors. */
export type ScriptedReply = 'rate_limit' | 'quota' | 'auth' | 'server_error' | { slowMs: number };

export interface FakeEmbeddingsServer {
  /** Base URL including /v1, as memory.embeddings.baseUrl expects. */
  baseUrl: string;
  dims: number;
  /** Every POST /v1/embeddings body received, in order (failed ones included). */
  requests: { model: string; input: string[] }[];
  /** Replies used, one per request, before normal answers resume. */
  script(replies: ScriptedReply[]): void;
  /** The vector this server returns for `text`. */
  vectorFor(text: string): number[];
  close(): Promise<void>;
}

function tokens(text: string): string[] {
  const out: string[] = [];
  for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = match[0];
    if (/\p{Script=Han}/u.test(word)) {
      const chars = Array.from(word);
      for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
      if (chars.length === 1) out.push(word);
    } else out.push(word);
  }
  return out;
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * Deterministic bag-of-words vectors: texts sharing words get a high cosine
 * similarity, so hybrid ranking behaves like a (very plain) semantic model.
 */
function embed(text: string, dims: number): number[] {
  const vector = new Array<number>(dims).fill(0);
  for (const token of tokens(text)) {
    const hash = fnv1a(token);
    vector[hash % dims]! += hash & 0x80000000 ? -1 : 1;
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** An OpenAI-compatible /v1/embeddings endpoint on loopback with scripted failures. */
export async function startFakeEmbeddingsServer(options: { dims?: number } = {}): Promise<FakeEmbeddingsServer> {
  const dims = options.dims ?? 64;
  const requests: { model: string; input: string[] }[] = [];
  const queue: ScriptedReply[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    void (async () => {
      if (req.method !== 'POST' || req.url !== '/v1/embeddings') return sendJson(res, 404, { error: { message: 'not found' } });
      const body = JSON.parse(await readBody(req)) as { model: string; input: string | string[] };
      const input = Array.isArray(body.input) ? body.input : [body.input];
      requests.push({ model: body.model, input });
      const reply = queue.shift();
      if (reply === 'rate_limit')
        return sendJson(res, 429, { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } }, { 'retry-after': '0' });
      if (reply === 'quota')
        return sendJson(res, 429, { error: { message: 'You exceeded your current quota', type: 'insufficient_quota', code: 'insufficient_quota' } });
      if (reply === 'auth')
        return sendJson(res, 401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } });
      if (reply === 'server_error') return sendJson(res, 500, { error: { message: 'The server had an error', type: 'server_error' } });
      if (reply && typeof reply === 'object') {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            timers.delete(timer);
            resolve();
          }, reply.slowMs);
          timers.add(timer);
        });
        if (res.destroyed) return;
      }
      sendJson(res, 200, {
        object: 'list',
        model: body.model,
        data: input.map((text, index) => ({ object: 'embedding', index, embedding: embed(text, dims) })),
        usage: { prompt_tokens: 0, total_tokens: 0 },
      });
    })().catch((error: unknown) => sendJson(res, 500, { error: { message: String(error) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    dims,
    requests,
    script: (replies) => {
      queue.push(...replies);
    },
    vectorFor: (text) => embed(text, dims),
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
