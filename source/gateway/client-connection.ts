import {
  ClawError,
  MAX_FRAME_BYTES,
  PRE_AUTH_MAX_BYTES,
  closeCodes,
  connectParams,
  hasScope,
  requestFrame,
  type ConnectParams,
  type PresenceEntry,
  type RequestFrame,
  type ResponseFrame,
  type Scope,
} from '../protocol/index.js';
import type { CallerInfo } from './module.js';
import type { WebSocket } from 'ws';

export interface ConnectionHost {
  /** Checks `connect` (protocol, token) and returns the hello payload, or throws a ClawError with its close code. */
  accept(conn: ClientConnection, params: ConnectParams): unknown;
  /** Called right after the hello was sent, to replay missed events. */
  afterHello(conn: ClientConnection, params: ConnectParams): void;
  dispatch(frame: RequestFrame, caller: CallerInfo): Promise<ResponseFrame>;
  closed(conn: ClientConnection): void;
  sendBufferLimit: number;
  connectTimeoutMs: number;
}

export class HandshakeError extends ClawError {
  constructor(
    readonly closeCode: number,
    code: ConstructorParameters<typeof ClawError>[0],
    message: string,
    retryAfterMs?: number,
  ) {
    super(code, message, retryAfterMs !== undefined ? { retryAfterMs } : {});
  }
}

function setReceiveLimit(ws: WebSocket, bytes: number): void {
  // ws has one maxPayload per server; lowering it on this socket's receiver
  // makes the 64 KiB pre-auth cap bite before a large frame is buffered.
  const receiver = (ws as unknown as { _receiver?: { _maxPayload?: number } })._receiver;
  if (receiver && typeof receiver._maxPayload === 'number') receiver._maxPayload = bytes;
}

/** Corked frames past this size are written at once. */
const CORK_MAX_BYTES = 64 * 1024;

/**
 * The TCP socket under a ws connection (ws keeps it private), for corking:
 * without it each frame is its own write system call.
 */
function socketOf(ws: WebSocket): { cork(): void; uncork(): void } | undefined {
  const socket = (ws as unknown as { _socket?: { cork?: unknown; uncork?: unknown } })._socket;
  return socket && typeof socket.cork === 'function' && typeof socket.uncork === 'function' ? (socket as { cork(): void; uncork(): void }) : undefined;
}

/** One WebSocket client: the handshake state machine and its send queue guard. */
export class ClientConnection {
  state: 'handshake' | 'open' | 'closed' = 'handshake';
  caller: CallerInfo;
  info: PresenceEntry | undefined;
  private readonly connectTimer: NodeJS.Timeout;
  private corked = false;

  constructor(
    readonly ws: WebSocket,
    readonly connId: string,
    readonly address: string,
    /** Scopes of a token already checked in the upgrade's Authorization header; undefined when connect must carry one. */
    readonly preAuthScopes: Scope[] | undefined,
    private readonly host: ConnectionHost,
  ) {
    this.caller = { connId, clientId: 'unknown', scopes: [], address };
    setReceiveLimit(ws, PRE_AUTH_MAX_BYTES);
    const seconds = host.connectTimeoutMs / 1000;
    this.connectTimer = setTimeout(
      () => this.close(closeCodes.connectTimeout, `connect timeout: send a connect request within ${seconds} s`),
      host.connectTimeoutMs,
    );
    ws.on('message', (data, isBinary) => this.onMessage(data as Buffer, isBinary));
    ws.on('close', () => this.onClosed());
    ws.on('error', () => this.onClosed());
  }

  canReceive(scope: Parameters<typeof hasScope>[1]): boolean {
    return this.state === 'open' && hasScope(this.caller.scopes, scope);
  }

  /**
   * Sends a pre-serialised frame; drops the client if it stopped reading.
   * `now`: write it, and what waits before it, without waiting for the rest
   * of this moment's events.
   */
  sendText(text: string, now = false): void {
    if (this.state === 'closed') return;
    if (this.ws.bufferedAmount > this.host.sendBufferLimit) {
      this.close(closeCodes.slowConsumer, 'slow consumer: send buffer over limit, reconnect to resync');
      setTimeout(() => this.ws.terminate(), 1000).unref();
      return;
    }
    this.corkUntilImmediate();
    this.ws.send(text);
    if (now) this.flushCorked();
  }

  /** Writes what the cork holds; the socket stays corked for the events that follow until the immediate. */
  private flushCorked(): void {
    const socket = socketOf(this.ws);
    if (!socket || !this.corked) return;
    socket.uncork();
    socket.cork();
  }

  /**
   * The events of one moment (a turn's end sends its reply, usage, context,
   * lifecycle and session events together) leave in one write, sent before
   * the event loop next waits for I/O.
   */
  private corkUntilImmediate(): void {
    const socket = socketOf(this.ws);
    if (!socket) return;
    if (this.corked) {
      // A burst (a resume replay) goes out as it grows, not all at once at the end.
      if (this.ws.bufferedAmount > CORK_MAX_BYTES) this.flushCorked();
      return;
    }
    socket.cork();
    this.corked = true;
    setImmediate(() => {
      this.corked = false;
      socket.uncork();
    });
  }

  close(code: number, reason: string): void {
    if (this.state === 'closed') return;
    this.ws.close(code, reason.slice(0, 120));
    this.onClosed();
  }

  private onClosed(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    clearTimeout(this.connectTimer);
    this.host.closed(this);
  }

  private onMessage(data: Buffer, isBinary: boolean): void {
    if (this.state === 'closed') return;
    if (isBinary) return this.close(closeCodes.badFrame, 'binary frames are not accepted: send JSON text');
    let parsed: unknown;
    try {
      parsed = JSON.parse(data.toString('utf8'));
    } catch {
      return this.close(closeCodes.badFrame, 'malformed JSON frame');
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      return this.close(closeCodes.badFrame, 'frame must be a JSON object');
    }
    const frame = requestFrame.safeParse(parsed);
    if (this.state === 'handshake') return this.onHandshake(frame.success ? frame.data : undefined);
    if (!frame.success) {
      const id = (parsed as { id?: unknown }).id;
      if (typeof id !== 'string') return this.close(closeCodes.badFrame, 'frame is not a request: expected {type:"req", id, method, params}');
      this.respond({
        type: 'res',
        id,
        ok: false,
        error: new ClawError('bad_request', 'Malformed request: expected {type:"req", id, method, params}.').toShape(),
      });
      return;
    }
    void this.host.dispatch(frame.data, this.caller).then((res) => this.respond(res));
  }

  private onHandshake(frame: RequestFrame | undefined): void {
    if (frame?.method !== 'connect') {
      return this.close(closeCodes.badFrame, 'the first request must be connect');
    }
    const params = connectParams.safeParse(frame.params);
    if (!params.success) {
      const message = `Invalid connect params: ${params.error.issues.map((i) => `${i.path.join('.') || 'params'}: ${i.message}`).join('; ')}`;
      this.respond({ type: 'res', id: frame.id, ok: false, error: new ClawError('bad_request', message).toShape() });
      return this.close(closeCodes.badFrame, 'invalid connect params');
    }
    try {
      const hello = this.host.accept(this, params.data);
      clearTimeout(this.connectTimer);
      this.state = 'open';
      setReceiveLimit(this.ws, MAX_FRAME_BYTES);
      this.respond({ type: 'res', id: frame.id, ok: true, payload: hello });
      this.host.afterHello(this, params.data);
    } catch (error) {
      const handshake = error instanceof HandshakeError ? error : new HandshakeError(closeCodes.badFrame, 'internal', String(error));
      this.respond({ type: 'res', id: frame.id, ok: false, error: handshake.toShape() });
      this.close(handshake.closeCode, handshake.message);
    }
  }

  private respond(frame: ResponseFrame): void {
    if (this.state === 'closed') return;
    this.ws.send(JSON.stringify(frame));
  }
}
