import WebSocket from 'ws';
import { PROTOCOL_VERSION } from '../../source/protocol/index.js';

/** A bare WebSocket speaking the wire protocol by hand, to send what GatewayClient never would. */
export interface RawClient {
  ws: WebSocket;
  frames: Array<Record<string, unknown>>;
  closed: Promise<{ code: number; reason: string }>;
  send(frame: unknown): void;
  /** Resolves with the first received frame matching `match` (seen already or arriving later). */
  next(match: (frame: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  request(method: string, params?: unknown): Promise<Record<string, unknown>>;
}

export interface RawOptions {
  headers?: Record<string, string>;
  localAddress?: string;
}

export async function waitFor(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Opens a socket; rejects with the HTTP status when the upgrade is refused. */
export function openRaw(url: string, options: RawOptions = {}): Promise<RawClient> {
  const ws = new WebSocket(url, { perMessageDeflate: false, ...options });
  const frames: Array<Record<string, unknown>> = [];
  const waiters: Array<{ match: (f: Record<string, unknown>) => boolean; resolve: (f: Record<string, unknown>) => void }> = [];
  let counter = 0;
  ws.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as Record<string, unknown>;
    frames.push(frame);
    for (const waiter of [...waiters]) {
      if (waiter.match(frame)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(frame);
      }
    }
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
  });
  const client: RawClient = {
    ws,
    frames,
    closed,
    send: (frame) => ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame)),
    next: (match) => {
      const seen = frames.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
    request: (method, params) => {
      counter += 1;
      const id = `r${counter}`;
      client.send({ type: 'req', id, method, ...(params === undefined ? {} : { params }) });
      return client.next((f) => f.type === 'res' && f.id === id);
    },
  };
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(client));
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on('end', () => reject(new UpgradeRefused(res.statusCode ?? 0, body, res.headers['retry-after'])));
    });
    ws.once('error', (error) => reject(error));
  });
}

export class UpgradeRefused extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly retryAfter: string | string[] | undefined,
  ) {
    super(`upgrade refused with HTTP ${status}: ${body}`);
  }
}

export function connectParams(token: string | undefined, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    minProtocol: PROTOCOL_VERSION,
    maxProtocol: PROTOCOL_VERSION,
    client: { id: 'raw-test', version: '0.0.0' },
    role: 'operator',
    scopes: ['read', 'write', 'admin'],
    ...(token === undefined ? {} : { auth: { token } }),
    ...extra,
  };
}

/** Opens a socket and completes `connect`; returns the client and the hello payload. */
export async function openConnected(
  url: string,
  token: string,
  extra: Record<string, unknown> = {},
  options: RawOptions = {},
): Promise<{ raw: RawClient; hello: Record<string, unknown> }> {
  const raw = await openRaw(url, options);
  const res = await raw.request('connect', connectParams(token, extra));
  if (res.ok !== true) throw new Error(`connect failed: ${JSON.stringify(res.error)}`);
  return { raw, hello: res.payload as Record<string, unknown> };
}
