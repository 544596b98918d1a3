import { randomUUID } from 'node:crypto';
import { CLAW_VERSION } from '../config/index.js';
import {
  ClawError,
  PROTOCOL_VERSION,
  readServerFrame,
  type EventName,
  type HelloPayload,
  type MethodName,
  type ParamsOf,
  type PayloadOf,
  type ResultOf,
  type Scope,
} from '../protocol/index.js';
import { WebSocket } from 'ws';

export interface GatewayClientOptions {
  url: string;
  token: string;
  clientId?: string;
  clientName?: string;
  scopes?: Scope[];
  /** Reconnect after a drop, 1 s doubling to 30 s. Off by default for one-shot CLI calls. */
  reconnect?: boolean;
  requestTimeoutMs?: number;
  connectTimeoutMs?: number;
}

export type ConnectionState = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'closed';

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

type EventHandler = (payload: unknown, seq: number, event: string) => void;

/**
 * The one client of the gateway protocol, used by the CLI and the TUI: the
 * connect handshake, typed requests with timeouts, event subscription, seq
 * tracking, and reconnect that resumes from the last seq it saw.
 */
export class GatewayClient {
  state: ConnectionState = 'idle';
  hello: HelloPayload | undefined;
  /** Last close reason from the gateway, for error messages. */
  lastCloseReason = '';
  private ws: WebSocket | undefined;
  private readonly pending = new Map<string, Pending>();
  private readonly handlers = new Map<string, Set<EventHandler>>();
  private readonly stateListeners = new Set<(state: ConnectionState, detail: { attempt: number; delayMs?: number; reason?: string }) => void>();
  private readonly helloListeners = new Set<(hello: HelloPayload) => void>();
  private lastSeq = 0;
  private attempt = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private closedByUser = false;

  constructor(private readonly options: GatewayClientOptions) {}

  /** Opens the socket and completes `connect`; rejects with a clear message on failure. */
  async connect(): Promise<HelloPayload> {
    this.closedByUser = false;
    this.setState(this.attempt === 0 ? 'connecting' : 'reconnecting');
    const ws = new WebSocket(this.options.url, { perMessageDeflate: false, handshakeTimeout: this.options.connectTimeoutMs ?? 10_000 });
    this.ws = ws;
    return new Promise<HelloPayload>((resolve, reject) => {
      let settled = false;
      const fail = (error: Error): void => {
        if (settled) return;
        settled = true;
        reject(error);
      };
      ws.on('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => {
          body += chunk.toString('utf8');
        });
        res.on('end', () =>
          fail(
            new ClawError(
              res.statusCode === 401 ? 'unauthorized' : res.statusCode === 429 ? 'rate_limited' : 'unavailable',
              `Gateway refused the connection (HTTP ${res.statusCode}): ${body || res.statusMessage}`,
            ),
          ),
        );
      });
      ws.on('error', (error) => fail(new ClawError('unavailable', `Cannot reach the gateway at ${this.options.url}: ${error.message}`)));
      ws.on('open', () => {
        const resume = this.hello ? { epoch: this.hello.server.epoch, sinceSeq: this.lastSeq } : undefined;
        this.rawRequest('connect', {
          minProtocol: PROTOCOL_VERSION,
          maxProtocol: PROTOCOL_VERSION,
          client: {
            id: this.options.clientId ?? `claw-${randomUUID().slice(0, 8)}`,
            version: CLAW_VERSION,
            ...(this.options.clientName ? { name: this.options.clientName } : {}),
          },
          role: 'operator',
          scopes: this.options.scopes ?? ['read', 'write', 'admin', 'approvals'],
          auth: { token: this.options.token },
          ...(resume ? { resume } : {}),
        }).then(
          (payload) => {
            const hello = payload as HelloPayload;
            this.hello = hello;
            this.lastSeq = hello.seq;
            this.attempt = 0;
            settled = true;
            this.setState('open');
            for (const listener of this.helloListeners) listener(hello);
            resolve(hello);
          },
          (error: Error) => fail(error),
        );
      });
      ws.on('message', (data) => this.onFrame(data.toString()));
      ws.on('close', (code, reason) => {
        this.lastCloseReason = reason.toString() || `code ${code}`;
        fail(new ClawError(code === 4401 ? 'unauthorized' : 'unavailable', `Gateway closed the connection: ${this.lastCloseReason}`));
        this.onClose();
      });
    });
  }

  /** Sends a typed request; rejects with a ClawError carrying the gateway's code. */
  request<M extends MethodName>(method: M, params?: ParamsOf<M>, options: { timeoutMs?: number } = {}): Promise<ResultOf<M>> {
    if (this.state !== 'open') {
      return Promise.reject(new ClawError('unavailable', `Not connected to the gateway (${this.state}).`));
    }
    return this.rawRequest(method, params, options.timeoutMs) as Promise<ResultOf<M>>;
  }

  on<E extends EventName>(event: E, handler: (payload: PayloadOf<E>, seq: number) => void): () => void;
  on(event: '*' | 'resync', handler: EventHandler): () => void;
  on(event: string, handler: EventHandler): () => void {
    let set = this.handlers.get(event);
    if (!set) this.handlers.set(event, (set = new Set()));
    set.add(handler);
    return () => set.delete(handler);
  }

  onState(listener: (state: ConnectionState, detail: { attempt: number; delayMs?: number; reason?: string }) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /** Called after every successful connect, including resumed ones. */
  onHello(listener: (hello: HelloPayload) => void): () => void {
    this.helloListeners.add(listener);
    return () => this.helloListeners.delete(listener);
  }

  /**
   * Skips the rest of the backoff wait: for callers that know the path is back
   * (e.g. an SSH tunnel that has just reopened).
   */
  reconnectNow(): void {
    if (this.state !== 'reconnecting' || this.closedByUser || !this.reconnectTimer) return;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    this.connect().catch(() => {
      // A failure ends in a close event, which schedules the next try.
    });
  }

  get seq(): number {
    return this.lastSeq;
  }

  close(): void {
    this.closedByUser = true;
    clearTimeout(this.reconnectTimer);
    this.ws?.close(1000, 'client closing');
    this.ws?.terminate();
    this.setState('closed');
  }

  private rawRequest(method: string, params: unknown, timeoutMs = this.options.requestTimeoutMs ?? 30_000): Promise<unknown> {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return Promise.reject(new ClawError('unavailable', 'Not connected to the gateway.'));
    const id = randomUUID();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new ClawError('timeout', `${method} got no answer within ${timeoutMs} ms.`));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      ws.send(JSON.stringify({ type: 'req', id, method, ...(params === undefined ? {} : { params }) }));
    });
  }

  private onFrame(text: string): void {
    let frame;
    try {
      frame = readServerFrame(JSON.parse(text));
    } catch {
      return;
    }
    if (!frame) return;
    if (frame.type === 'res') {
      const pending = this.pending.get(frame.id);
      if (!pending) return;
      this.pending.delete(frame.id);
      clearTimeout(pending.timer);
      if (frame.ok) pending.resolve(frame.payload);
      else pending.reject(ClawError.fromShape(frame.error));
      return;
    }
    if (frame.seq <= this.lastSeq) return;
    const gap = frame.seq !== this.lastSeq + 1;
    this.lastSeq = frame.seq;
    if (gap) this.emit('resync', { reason: 'gap' }, frame.seq);
    this.emit(frame.event, frame.payload, frame.seq);
  }

  private emit(event: string, payload: unknown, seq: number): void {
    for (const handler of this.handlers.get(event) ?? []) handler(payload, seq, event);
    for (const handler of this.handlers.get('*') ?? []) handler(payload, seq, event);
  }

  private onClose(): void {
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(new ClawError('unavailable', `Connection to the gateway closed: ${this.lastCloseReason}`));
      this.pending.delete(id);
    }
    if (this.closedByUser || this.state === 'closed') return;
    if (!this.options.reconnect || this.lastCloseReason.startsWith('wrong gateway token')) {
      this.setState('closed', { reason: this.lastCloseReason });
      return;
    }
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    this.attempt += 1;
    const base = Math.min(30_000, 1000 * 2 ** (this.attempt - 1));
    const delayMs = Math.round(base * (0.9 + Math.random() * 0.2));
    this.setState('reconnecting', { delayMs, reason: this.lastCloseReason });
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.connect().catch(() => {
        // connect() failing ends in a close event, which schedules the next try.
      });
    }, delayMs);
  }

  private setState(state: ConnectionState, detail: { delayMs?: number; reason?: string } = {}): void {
    this.state = state;
    for (const listener of this.stateListeners) listener(state, { attempt: this.attempt, ...detail });
  }
}
