import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { AddressPolicy } from '../web/address-policy.js';
import { checkedAddress, systemResolver, WebFetchError, type ResolvedAddress, type Resolver } from '../web/guarded-fetch.js';

/** What the guard decides about one host before any address check: `ask` is a site the owner has not approved yet. */
export type SiteVerdict = 'allow' | 'ask' | 'deny';

export interface NetworkGuardOptions {
  /** `tools.web.allowPrivate`, read at every request so a config change applies at once. */
  allowPrivate: () => readonly string[];
  /** `deny` for a site the agent's policy refuses outright. */
  site?: (hostname: string) => SiteVerdict;
  resolve?: Resolver;
}

export interface Refusal {
  url: string;
  reason: string;
}

/** Headers that belong to one hop (RFC 9110 §7.6.1) plus the proxy's own. */
const HOP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * The only way out for the browser: an HTTP proxy on loopback that Chromium
 * is started behind (`--proxy-server`, with `<-loopback>` so not even
 * loopback bypasses it). Every request — a navigation, each redirect hop, an
 * `<img>`, `fetch()`, a WebSocket (Chromium tunnels those with CONNECT) — is
 * one request here: the host is resolved here, every address checked against
 * the same policy as `web_fetch`, and the connection made to the checked
 * address, so a second DNS answer cannot slip in. Chromium itself never
 * resolves a name.
 */
export class NetworkGuard {
  readonly #options: NetworkGuardOptions;
  readonly #server: http.Server;
  readonly #sockets = new Set<Socket | Duplex>();
  readonly #refused: Refusal[] = [];
  #port = 0;

  constructor(options: NetworkGuardOptions) {
    this.#options = options;
    this.#server = http.createServer((request, response) => void this.#forward(request, response));
    this.#server.on('connect', (request: IncomingMessage, socket: Duplex, head: Buffer) => void this.#tunnel(request, socket, head));
    this.#server.on('connection', (socket: Socket) => this.#track(socket));
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(0, '127.0.0.1', () => resolve());
    });
    this.#port = (this.#server.address() as { port: number }).port;
    return `http://127.0.0.1:${this.#port}`;
  }

  /** Requests refused since the last call (the tool reports them with the page). */
  takeRefusals(): Refusal[] {
    return this.#refused.splice(0);
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #track(socket: Socket | Duplex): void {
    this.#sockets.add(socket);
    socket.once('close', () => this.#sockets.delete(socket));
    socket.on('error', () => {});
  }

  async #check(url: URL): Promise<ResolvedAddress> {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const verdict = this.#options.site?.(host);
    if (verdict === 'deny') throw new WebFetchError('refused', `Refused ${url.host}: tools.browser.sites marks it "deny".`);
    if (verdict === 'ask') {
      throw new WebFetchError(
        'refused',
        `Refused ${url.host}: tools.browser.sites marks it "ask" and the owner has not approved a visit yet; browser navigate to it asks.`,
      );
    }
    return checkedAddress(url, new AddressPolicy(this.#options.allowPrivate()), this.#options.resolve ?? systemResolver);
  }

  #refuse(url: string, error: unknown): string {
    const reason = error instanceof Error ? error.message : String(error);
    this.#refused.push({ url, reason });
    if (this.#refused.length > 50) this.#refused.shift();
    return reason;
  }

  async #forward(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let target: URL;
    try {
      target = new URL(request.url ?? '');
      if (target.protocol !== 'http:') throw new Error(`only http:// goes through as a plain request, not ${target.protocol}`);
    } catch (error) {
      response.writeHead(400, { 'content-type': 'text/plain' }).end(`claw browser proxy: bad request (${(error as Error).message})`);
      return;
    }
    let pinned: ResolvedAddress;
    try {
      pinned = await this.#check(target);
    } catch (error) {
      const reason = this.#refuse(target.href, error);
      response.writeHead(403, { 'content-type': 'text/plain' }).end(`claw refused this request: ${reason}`);
      return;
    }
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined && !HOP_HEADERS.has(name)) headers[name] = value;
    }
    const upstream = http.request({
      host: pinned.address,
      family: pinned.family,
      port: Number(target.port || 80),
      method: request.method,
      path: `${target.pathname}${target.search}`,
      headers: { ...headers, host: target.host },
      agent: false,
    });
    upstream.on('response', (answer) => {
      const out: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value !== undefined && !HOP_HEADERS.has(name)) out[name] = value;
      }
      response.writeHead(answer.statusCode ?? 502, answer.statusMessage, out);
      answer.pipe(response);
    });
    upstream.on('error', (error) => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(`claw browser proxy: ${target.host} failed: ${error.message}`);
    });
    request.pipe(upstream);
  }

  async #tunnel(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    this.#track(socket);
    const authority = request.url ?? '';
    let target: URL;
    try {
      target = new URL(`http://${authority}`);
      if (!target.port) throw new Error('no port');
    } catch {
      socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    let pinned: ResolvedAddress;
    try {
      pinned = await this.#check(target);
    } catch (error) {
      this.#refuse(`${target.port === '443' ? 'https' : 'tunnel'}://${authority}`, error);
      socket.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    const upstream = connect({ host: pinned.address, port: Number(target.port), family: pinned.family });
    this.#track(upstream);
    upstream.once('connect', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.once('error', () => socket.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n'));
    socket.once('close', () => upstream.destroy());
    upstream.once('close', () => socket.destroy());
  }
}
