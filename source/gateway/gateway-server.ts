import { type Logger, systemClock, type Clock } from '../config/index.js';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { CLAW_VERSION, type ClawConfig, type StatePaths } from '../config/index.js';
import {
  CONNECT_TIMEOUT_MS,
  MAX_FRAME_BYTES,
  PROTOCOL_VERSION,
  closeCodes,
  events as eventSpecs,
  type ConnectParams,
  type ErrorCode,
  type GatewaySnapshot,
  type HealthPayload,
  type HelloPayload,
  type PresenceEntry,
  type Scope,
  hasScope,
} from '../protocol/index.js';
import { AuthLimiter } from './auth-limiter.js';
import { ClientConnection, HandshakeError } from './client-connection.js';
import { gatewayHandlers } from './gateway-handlers.js';
import { EventBus, type Core } from '../core/index.js';
import { coreGatewayModule } from './core-adapter.js';
import type { GatewayModule } from './module.js';
import { RpcRouter } from './rpc-router.js';
import { OPERATOR_SCOPES, scopesForToken, tokenMatches } from '../config/index.js';
import { WebSocketServer, type WebSocket } from 'ws';

/** How long clients get to answer the close handshake when the gateway stops. */
const CLOSE_GRACE_MS = 1000;

/** Why an HTTP request (a WebSocket upgrade, `/status`) is turned away. */
interface HttpRefusal {
  status: number;
  code: ErrorCode;
  message: string;
  headers?: Record<string, string>;
}

export interface GatewayOptions {
  config: ClawConfig;
  paths: StatePaths;
  port: number;
  bind: string;
  token: string;
  log: Logger;
  /**
   * The daemon's core, built and started by the daemon (the one root): the
   * gateway serves its methods, events (`core.events` is the bus), health and
   * snapshot, and drains and stops it with itself. Absent, the gateway serves
   * only its own methods (tests of the transport).
   */
  core?: Core;
  /** More method tables served beside the core's (tests). */
  modules?: GatewayModule[];
  /** The event bus when there is no core (whose own bus it is otherwise). */
  bus?: EventBus;
  /** Asked to stop or restart (by RPC); the daemon decides how. */
  onShutdownRequest?: (restart: boolean, reason: string) => void;
  clock?: Pick<Clock, 'now'>;
  /** The service manager running the daemon (reported by `status`). */
  supervisor?: 'systemd' | 'launchd' | 'none';
  /** Time a new socket has to send `connect`; shorter only in tests. */
  connectTimeoutMs?: number;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

export function isLoopbackBind(bind: string): boolean {
  return LOOPBACK.has(bind) || bind.startsWith('127.');
}

const TOKEN_QUERY_KEYS = ['token', 'auth', 'access_token', 'key'];

/** The gateway: one HTTP server with the WebSocket endpoint, the core's methods behind an RPC router. It serves the core; it does not build it. */
export class GatewayServer {
  readonly epoch = randomUUID();
  readonly bus: EventBus;
  private readonly http: Server;
  private readonly wss: WebSocketServer;
  private readonly router: RpcRouter;
  private readonly limiter = new AuthLimiter();
  private readonly clients = new Map<string, ClientConnection>();
  private readonly modules: GatewayModule[];
  private listeningPort = 0;
  private state: 'idle' | 'starting' | 'ready' | 'draining' | 'stopped' = 'idle';
  private tickTimer: NodeJS.Timeout | undefined;
  private warming: Promise<void> = Promise.resolve();
  private lastHealthText = '';
  private readonly startedAt: number;
  private readonly clock: Pick<Clock, 'now'>;

  constructor(private readonly options: GatewayOptions) {
    this.clock = options.clock ?? systemClock;
    this.startedAt = this.clock.now();
    this.bus = options.core?.events ?? options.bus ?? new EventBus(options.config.gateway.resumeBufferEvents);
    this.modules = [gatewayHandlers(this.coreHost()), ...(options.core ? [coreGatewayModule(options.core)] : []), ...(options.modules ?? [])];
    this.router = new RpcRouter(options.log);
    this.http = createServer((req, res) => this.onHttp(req, res));
    this.wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false });
    this.http.on('upgrade', (req, socket, head) => this.onUpgrade(req, socket, head));
    this.bus.subscribe((record) => {
      const scope = eventSpecs[record.event].scope;
      for (const client of this.clients.values()) if (client.canReceive(scope)) client.sendText(record.text, record.endsReply);
    });
  }

  get port(): number {
    return this.listeningPort;
  }

  /** Resolves once every module's background start-up work (`listening`) is done; never rejects. */
  warmed(): Promise<void> {
    return this.warming;
  }

  async start(): Promise<number> {
    const { bind, token, log } = this.options;
    if (!token) throw new Error('The gateway needs a token; none was found or generated.');
    this.state = 'starting';
    log.addSecret(token);
    for (const module of this.modules) this.router.register(module.handlers);
    await new Promise<void>((resolve, reject) => {
      const onError = (error: NodeJS.ErrnoException): void => {
        reject(
          error.code === 'EADDRINUSE'
            ? new Error(`Port ${this.options.port} on ${bind} is already in use. Stop whatever uses it, or pick another with --port or CLAW_GATEWAY_PORT.`)
            : error,
        );
      };
      this.http.once('error', onError);
      this.http.listen(this.options.port, bind, () => {
        this.http.off('error', onError);
        resolve();
      });
    });
    const address = this.http.address();
    this.listeningPort = typeof address === 'object' && address ? address.port : this.options.port;
    this.tickTimer = setInterval(() => this.onTick(), this.options.config.gateway.tickIntervalMs);
    this.tickTimer.unref();
    this.state = 'ready';
    this.warming = Promise.all(this.modules.map((module) => module.listening?.(this.listeningPort))).then(
      () => undefined,
      (error: unknown) => log.warn(`background start-up failed: ${error instanceof Error ? error.message : String(error)}`),
    );
    log.info(`gateway listening on ${bind}:${this.listeningPort}`, { pid: process.pid, version: CLAW_VERSION });
    return this.listeningPort;
  }

  /**
   * Stops accepting, tells clients why, lets modules drain until the deadline,
   * then closes every socket and the listener.
   */
  async stop(reason: string, restartExpectedMs?: number): Promise<void> {
    if (this.state === 'stopped' || this.state === 'draining') return;
    this.state = 'draining';
    clearInterval(this.tickTimer);
    this.bus.emit('shutdown', restartExpectedMs === undefined ? { reason } : { reason, restartExpectedMs });
    const closed = new Promise<void>((resolve) => this.http.close(() => resolve()));
    const deadline = this.clock.now() + this.options.config.gateway.drainTimeoutMs;
    await Promise.all(
      this.modules.map(async (module) => {
        try {
          await module.drain?.(deadline, reason);
        } catch (error) {
          this.options.log.warn(`module ${module.name} failed to drain`, { error: String(error) });
        }
      }),
    );
    for (const module of [...this.modules].reverse()) {
      try {
        await module.close?.();
      } catch (error) {
        this.options.log.warn(`module ${module.name} failed to close`, { error: String(error) });
      }
    }
    for (const client of this.clients.values())
      client.close(closeCodes.goingAway, restartExpectedMs === undefined ? 'gateway shutting down' : 'gateway restarting');
    // A client that never answers the close handshake (stuck, suspended) must not hold the stop or a restart: its socket is cut.
    const cut = setTimeout(() => {
      for (const socket of this.wss.clients) socket.terminate();
    }, CLOSE_GRACE_MS);
    this.wss.close();
    this.http.closeAllConnections();
    await closed;
    clearTimeout(cut);
    this.state = 'stopped';
    this.options.log.info(`gateway stopped: ${reason}`);
  }

  presence(): PresenceEntry[] {
    return [...this.clients.values()].flatMap((c) => (c.info && c.state === 'open' ? [c.info] : []));
  }

  health(): HealthPayload {
    const checks: HealthPayload['checks'] = {};
    for (const module of this.modules) {
      const result = module.health?.();
      if (result) checks[module.name] = result;
      Object.assign(checks, module.healthChecks?.());
    }
    return { ok: Object.values(checks).every((c) => c.ok), uptimeMs: this.clock.now() - this.startedAt, checks };
  }

  snapshot(): GatewaySnapshot {
    const snapshot: GatewaySnapshot = { presence: this.presence(), health: this.health() };
    for (const module of this.modules) Object.assign(snapshot, module.snapshot?.());
    return snapshot;
  }

  private coreHost() {
    return {
      startedAt: this.startedAt,
      stateDir: this.options.paths.root,
      bind: this.options.bind,
      epoch: this.epoch,
      supervisor: this.options.supervisor ?? 'none',
      port: () => this.listeningPort,
      seq: () => this.bus.seq,
      presence: () => this.presence(),
      health: () => this.health(),
      snapshot: () => this.snapshot(),
      requestShutdown: (restart: boolean, reason: string) => this.options.onShutdownRequest?.(restart, reason),
    };
  }

  private onTick(): void {
    this.bus.emit('tick', { ts: this.clock.now() });
    const health = this.health();
    const text = JSON.stringify(health.checks);
    if (text !== this.lastHealthText) {
      this.lastHealthText = text;
      this.bus.emit('health', health);
    }
  }

  private onHttp(req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0];
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
      res.end(JSON.stringify(body));
    };
    if (path === '/healthz') return reply(200, { ok: true });
    if (path === '/readyz')
      return this.state === 'ready' && this.modules.every((m) => m.ready?.() !== false) ? reply(200, { ready: true }) : reply(503, { ready: false });
    if (path === '/status' && this.state === 'ready') return void this.statusOverHttp(req, reply);
    if (this.state === 'ready' && this.modules.some((module) => module.http?.(req, res, path ?? '/'))) return;
    reply(404, { error: 'not found' });
  }

  /**
   * The `status` method for one authenticated GET (what `claw status` sends):
   * the same answer, scope check and failed-token lockout as over a WebSocket,
   * without a session's handshake and hello snapshot.
   */
  private async statusOverHttp(req: IncomingMessage, reply: (status: number, body: unknown, headers?: Record<string, string>) => void): Promise<void> {
    const address = req.socket.remoteAddress ?? 'unknown';
    if (req.method !== 'GET') return reply(405, { error: { code: 'bad_request', message: '/status answers GET only.' } });
    const auth = this.authorizeHttp(req, address, 'a /status request');
    if ('refused' in auth) return reply(auth.refused.status, { error: { code: auth.refused.code, message: auth.refused.message } }, auth.refused.headers);
    if (!auth.scopes) {
      return reply(401, {
        error: { code: 'unauthorized', message: 'Send the gateway token as `Authorization: Bearer <token>`; get it with `claw gateway token`.' },
      });
    }
    const answer = await this.router.dispatch(
      { type: 'req', id: 'http-status', method: 'status' },
      { connId: 'http', clientId: 'http /status', scopes: auth.scopes, address },
    );
    if (answer.ok) return reply(200, answer.payload);
    reply(answer.error.code === 'forbidden' ? 403 : 500, { error: answer.error });
  }

  /**
   * What every way in over HTTP checks first: no browser origin but the
   * allowed ones, no address that is locked out, and an `Authorization:
   * Bearer` token, when one is sent, that is the gateway's or a scoped one
   * (a wrong one counts toward the lockout). No header: `scopes` undefined.
   */
  private authorizeHttp(req: IncomingMessage, address: string, what: string): { scopes: Scope[] | undefined } | { refused: HttpRefusal } {
    const origin = req.headers.origin;
    if (origin !== undefined && !this.options.config.gateway.allowedOrigins.includes(origin)) {
      // Any web page the operator visits can reach a loopback port; browsers always say where they come from.
      this.options.log.warn(`refused ${what} from a browser origin`, { address, origin });
      const message = `Browser origin ${JSON.stringify(origin).slice(0, 100)} is not allowed. Add it to gateway.allowedOrigins in claw.json if it should connect.`;
      return { refused: { status: 403, code: 'forbidden', message } };
    }
    const authorization = req.headers.authorization;
    if (!authorization) return { scopes: undefined };
    const token = /^Bearer\s+(.+)$/i.exec(authorization)?.[1]?.trim();
    // The right token is always let in: a process that sends wrong ones must not lock the operator out.
    const scopes = token ? this.tokenScopes(token) : undefined;
    if (scopes) return { scopes };
    const lockedFor = this.limiter.lockedFor(address);
    if (lockedFor > 0) {
      const headers = { 'retry-after': String(Math.ceil(lockedFor / 1000)) };
      return { refused: { status: 429, code: 'rate_limited', message: 'Too many failed auth attempts; try again later.', headers } };
    }
    this.limiter.recordFailure(address);
    return { refused: { status: 401, code: 'unauthorized', message: 'Wrong gateway token; get the right one with `claw gateway token`.' } };
  }

  private onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const address = req.socket.remoteAddress ?? 'unknown';
    const refuse = (status: number, message: string, headers: Record<string, string> = {}): void => {
      const extra = Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
      socket.end(
        `HTTP/1.1 ${status} ${message}\r\ncontent-type: text/plain\r\nconnection: close\r\n${extra}content-length: ${Buffer.byteLength(message)}\r\n\r\n${message}`,
      );
    };
    if (this.state !== 'ready') return refuse(503, 'gateway is not ready');
    const url = new URL(req.url ?? '/', 'http://gateway');
    if (TOKEN_QUERY_KEYS.some((key) => url.searchParams.has(key))) {
      // The URL is never logged: it holds the secret.
      this.options.log.warn('refused a WebSocket upgrade with a token in the URL', { address });
      return refuse(400, 'Tokens are never accepted in URLs; send the token in the connect frame or an Authorization header.');
    }
    const auth = this.authorizeHttp(req, address, 'a WebSocket upgrade');
    if ('refused' in auth) return refuse(auth.refused.status, auth.refused.message, auth.refused.headers);
    this.wss.handleUpgrade(req, socket, head, (ws) => this.onConnection(ws, address, auth.scopes));
  }

  /** Scopes of the main token (all) or a scoped token from `claw gateway token create`; undefined when it is neither. */
  private tokenScopes(token: string): Scope[] | undefined {
    try {
      return scopesForToken(this.options.paths, this.options.token, token);
    } catch (error) {
      this.options.log.warn('could not read the scoped token list; only the main token works', { error: String(error) });
      return tokenMatches(token, this.options.token) ? [...OPERATOR_SCOPES] : undefined;
    }
  }

  private onConnection(ws: WebSocket, address: string, preAuthScopes: Scope[] | undefined): void {
    const connId = randomUUID();
    const connection = new ClientConnection(ws, connId, address, preAuthScopes, {
      sendBufferLimit: this.options.config.gateway.sendBufferLimitBytes,
      connectTimeoutMs: this.options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
      accept: (conn, params) => this.acceptConnect(conn, params),
      afterHello: (conn, params) => this.replay(conn, params),
      dispatch: (frame, caller) => this.router.dispatch(frame, caller),
      closed: (conn) => {
        if (this.clients.delete(conn.connId) && conn.info && this.state === 'ready') {
          this.bus.emit('presence', { clients: this.presence() });
        }
      },
    });
    this.clients.set(connId, connection);
  }

  private acceptConnect(conn: ClientConnection, params: ConnectParams): HelloPayload {
    if (params.minProtocol > PROTOCOL_VERSION || params.maxProtocol < PROTOCOL_VERSION) {
      throw new HandshakeError(
        closeCodes.protocolMismatch,
        'bad_request',
        `protocol mismatch: gateway speaks ${PROTOCOL_VERSION}, client ${params.minProtocol}-${params.maxProtocol}; upgrade the older side`,
      );
    }
    let tokenScopes = conn.preAuthScopes;
    if (!tokenScopes) {
      const token = params.auth?.token;
      tokenScopes = token ? this.tokenScopes(token) : undefined;
      if (!tokenScopes) {
        const lockedFor = this.limiter.lockedFor(conn.address);
        if (lockedFor > 0) throw new HandshakeError(closeCodes.lockedOut, 'rate_limited', 'too many failed auth attempts; try again later', lockedFor);
        this.limiter.recordFailure(conn.address);
        throw new HandshakeError(
          closeCodes.unauthorized,
          'unauthorized',
          token ? 'wrong gateway token: see `claw gateway token`' : 'missing token: send auth.token in connect',
        );
      }
    }
    // Scopes come from the token; a client may ask for fewer, never for more.
    const granted = params.scopes.filter((wanted) => hasScope(tokenScopes, wanted));
    if (granted.length === 0) {
      throw new HandshakeError(
        closeCodes.unauthorized,
        'forbidden',
        `this token carries ${tokenScopes.join(', ')}; none of the requested scopes (${params.scopes.join(', ')})`,
      );
    }
    conn.caller = { connId: conn.connId, clientId: params.client.id, scopes: granted, address: conn.address };
    conn.info = {
      connId: conn.connId,
      clientId: params.client.id,
      ...(params.client.name ? { clientName: params.client.name } : {}),
      version: params.client.version,
      address: conn.address,
      connectedAt: this.clock.now(),
      scopes: granted,
    };
    const resumable = params.resume && params.resume.epoch === this.epoch && this.bus.since(params.resume.sinceSeq) !== undefined;
    // Presence goes out before the hello so the new client's own arrival is not replayed to it.
    this.bus.emit('presence', { clients: [...this.presence(), conn.info] });
    return {
      protocol: PROTOCOL_VERSION,
      server: { version: CLAW_VERSION, connId: conn.connId, epoch: this.epoch, host: hostname() },
      scopes: granted,
      methods: this.router.served(),
      events: Object.keys(eventSpecs),
      // The client itself is in its own presence list (it is not open yet, and its arrival event is not sent to it): an approval it answers names it.
      snapshot: { ...this.snapshot(), presence: [...this.presence(), conn.info] },
      seq: resumable ? params.resume!.sinceSeq : this.bus.seq,
      resume: params.resume ? (resumable ? 'replayed' : 'snapshot') : 'none',
    };
  }

  private replay(conn: ClientConnection, params: ConnectParams): void {
    if (!params.resume || params.resume.epoch !== this.epoch) return;
    for (const record of this.bus.since(params.resume.sinceSeq) ?? []) {
      if (conn.canReceive(eventSpecs[record.event].scope)) conn.sendText(record.text);
    }
  }
}
