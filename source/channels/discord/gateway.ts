import { WebSocket } from 'ws';
import type { Clock, TimerHandle } from '../../config/index.js';
import { ReconnectPolicy } from '../reconnect.js';
import { DiscordApiError, type DiscordRest } from './rest.js';

/** Close codes after which connecting again cannot help: the operator must act. */
const FATAL: Record<number, string> = {
  4004: 'Discord refused the bot token (close 4004): run `claw channels login discord` with a fresh token from the Developer Portal',
  4010: 'Discord refused the shard (close 4010)',
  4011: 'the bot is in too many guilds for one shard (close 4011)',
  4012: 'Discord refused the gateway version (close 4012)',
  4013: 'Discord refused the intents (close 4013)',
  4014: 'Discord refused a privileged intent (close 4014): enable MESSAGE CONTENT INTENT under Bot in the Developer Portal',
};
/** Close codes after which the session cannot be resumed: the next connection identifies. */
const NEW_SESSION = new Set([4007, 4009]);
/** Our own close: the socket is dropped on purpose and resumed. */
const RESUME_CLOSE = 4900;

export interface GatewayIdentity {
  userId: string;
  username: string;
  applicationId: string;
}

/** What another process needs to RESUME a session. */
export interface GatewaySession extends GatewayIdentity {
  id: string;
  resumeUrl: string;
  seq: number;
}

export interface DiscordGatewayOptions {
  token: string;
  intents: number;
  clock: Clock;
  rest: DiscordRest;
  /** Each dispatch (`t`, `d`, its sequence number), in order; the next waits for this one. */
  onDispatch(type: string, data: unknown, seq: number): Promise<void>;
  /** A session saved by an earlier process: the first connection RESUMEs it instead of identifying. */
  resume?: GatewaySession | undefined;
  /** A new session began (READY), or the session is gone (undefined). */
  onSession(session: GatewaySession | undefined): void;
  onReady(identity: GatewayIdentity, resumed: boolean): void;
  onState(state: 'reconnecting' | 'error', reason: string): void;
  info(message: string): void;
  /** First reconnect delay (doubles to 60 s, with jitter); tests shorten it. */
  reconnectFirstDelayMs?: number;
  /** A connection up this long counts as healthy again: the reconnect ladder starts over. */
  stableMs?: number;
  random?: () => number;
}

interface Connection {
  socket: WebSocket;
  heartbeat?: TimerHandle;
  acked: boolean;
  readyAt?: number;
  interval: number;
}

/**
 * One Discord Gateway v10 session, and the only layer that reconnects it.
 * Health is the age of the last heartbeat ACK: a beat whose predecessor was
 * never ACKed marks the socket a zombie (or half-open), which is dropped and
 * RESUMEd, so a dead connection is noticed within two heartbeat intervals.
 * Reconnects follow one capped, jittered exponential ladder that restarts
 * only after a connection stayed up `stableMs`, so a flapping gateway never
 * causes a storm; fatal close codes (4004 bad token, …) stop and say why.
 */
export class DiscordGateway {
  readonly #options: DiscordGatewayOptions;
  readonly #reconnect: ReconnectPolicy;
  #connection: Connection | undefined;
  #url: string | undefined;
  #resumeUrl: string | undefined;
  #sessionId: string | undefined;
  #seq: number | null = null;
  #identity: GatewayIdentity | undefined;
  #events: Promise<void> = Promise.resolve();
  #stopped = false;
  #closed: Promise<void> = Promise.resolve();
  /** Connections opened after the first. */
  reconnects = 0;
  #opened = 0;
  lastAckAt: number | undefined;
  lastEventAt: number | undefined;

  constructor(options: DiscordGatewayOptions) {
    this.#options = options;
    this.#reconnect = new ReconnectPolicy({
      clock: options.clock,
      firstDelayMs: options.reconnectFirstDelayMs ?? 1_000,
      maxDelayMs: 60_000,
      // A gateway outage longer than the ladder must not leave the assistant deaf: fatal codes are the only stop.
      maxAttempts: Number.POSITIVE_INFINITY,
      ...(options.random ? { random: options.random } : {}),
    });
    if (options.resume) {
      this.#sessionId = options.resume.id;
      this.#resumeUrl = options.resume.resumeUrl;
      this.#seq = options.resume.seq;
      const { userId, username, applicationId } = options.resume;
      this.#identity = { userId, username, applicationId };
    }
  }

  get attempts(): number {
    return this.#reconnect.attempts;
  }

  get identity(): GatewayIdentity | undefined {
    return this.#identity;
  }

  start(): void {
    this.#stopped = false;
    void this.#open();
  }

  /**
   * Closes the socket with 1000 (Discord ends the session: the bot shows
   * offline at once, and the next start identifies and catches up) and
   * resolves once it is closed and every dispatch received was handled.
   */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#reconnect.cancel();
    const connection = this.#connection;
    if (connection) {
      this.#end(connection, 1000);
      // A peer that never answers the close handshake is not waited for.
      const timer = this.#options.clock.setTimer(() => connection.socket.terminate(), 2_000);
      await this.#closed;
      this.#options.clock.clearTimer(timer);
    }
    await this.#events;
    if (this.#sessionId) this.#forget();
  }

  async #open(): Promise<void> {
    if (this.#stopped) return;
    try {
      this.#url ??= `${(await this.#options.rest.request<{ url: string }>('GET', '/gateway/bot')).url}`;
    } catch (error) {
      if (error instanceof DiscordApiError && error.status === 401) {
        this.#stopped = true;
        this.#options.onState('error', FATAL[4004]!.replace('(close 4004)', '(401)'));
      } else this.#retry(`cannot reach Discord: ${(error as Error).message}`);
      return;
    }
    if (this.#stopped) return;
    const base = this.#sessionId && this.#resumeUrl ? this.#resumeUrl : this.#url;
    const socket = new WebSocket(`${base}?v=10&encoding=json`);
    const connection: Connection = { socket, acked: true, interval: 0 };
    this.#connection = connection;
    if (this.#opened > 0) this.reconnects += 1;
    this.#opened += 1;
    let resolveClosed!: () => void;
    this.#closed = new Promise<void>((resolve) => {
      resolveClosed = resolve;
    });
    socket.on('message', (raw) => this.#frame(connection, String(raw)));
    socket.on('error', () => undefined);
    socket.on('close', (code, reason) => {
      resolveClosed();
      this.#closedWith(connection, code, reason.toString());
    });
  }

  #send(connection: Connection, payload: unknown): void {
    if (connection.socket.readyState === WebSocket.OPEN) connection.socket.send(JSON.stringify(payload));
  }

  #frame(connection: Connection, raw: string): void {
    if (this.#connection !== connection) return;
    let frame: { op: number; d: unknown; s: number | null; t: string | null };
    try {
      frame = JSON.parse(raw);
    } catch {
      return;
    }
    switch (frame.op) {
      case 10:
        this.#hello(connection, (frame.d as { heartbeat_interval: number }).heartbeat_interval);
        return;
      case 11:
        connection.acked = true;
        this.lastAckAt = this.#options.clock.now();
        return;
      case 1:
        this.#beat(connection);
        return;
      case 7:
        this.#options.info('discord: the gateway asked for a reconnect; resuming');
        this.#end(connection, RESUME_CLOSE);
        return;
      case 9:
        if (frame.d !== true) this.#forget();
        this.#end(connection, RESUME_CLOSE);
        return;
      case 0:
        this.#dispatch(connection, frame);
        return;
    }
  }

  #hello(connection: Connection, interval: number): void {
    connection.interval = interval;
    const { clock } = this.#options;
    const beat = (): void => {
      if (this.#connection !== connection) return;
      if (!connection.acked) {
        // No ACK for the last beat: a zombie or half-open socket. Drop it and resume.
        this.#options.info(`discord: no heartbeat ACK within ${interval} ms; reconnecting`);
        this.#end(connection, RESUME_CLOSE, true);
        return;
      }
      this.#beat(connection);
      connection.heartbeat = clock.setTimer(beat, interval);
    };
    // Discord asks for the first beat after a random share of the interval, so clients do not beat in step.
    connection.heartbeat = clock.setTimer(beat, Math.round(interval * (this.#options.random ?? Math.random)()));
    if (this.#sessionId && this.#seq !== null) {
      this.#send(connection, { op: 6, d: { token: this.#options.token, session_id: this.#sessionId, seq: this.#seq } });
    } else {
      this.#send(connection, {
        op: 2,
        d: { token: this.#options.token, intents: this.#options.intents, properties: { os: process.platform, browser: 'claw', device: 'claw' } },
      });
    }
  }

  #beat(connection: Connection): void {
    connection.acked = false;
    this.#send(connection, { op: 1, d: this.#seq });
  }

  #dispatch(connection: Connection, frame: { s: number | null; t: string | null; d: unknown }): void {
    if (frame.s !== null) this.#seq = frame.s;
    this.lastEventAt = this.#options.clock.now();
    if (frame.t === 'READY') {
      const d = frame.d as { session_id: string; resume_gateway_url: string; user: { id: string; username: string }; application: { id: string } };
      this.#sessionId = d.session_id;
      this.#resumeUrl = d.resume_gateway_url;
      this.#identity = { userId: d.user.id, username: d.user.username, applicationId: d.application.id };
      connection.readyAt = this.#options.clock.now();
      this.#options.onSession({ id: d.session_id, resumeUrl: d.resume_gateway_url, seq: frame.s ?? 0, ...this.#identity });
      this.#options.onReady(this.#identity, false);
      return;
    }
    if (frame.t === 'RESUMED') {
      connection.readyAt = this.#options.clock.now();
      if (this.#identity) this.#options.onReady(this.#identity, true);
      return;
    }
    if (!frame.t) return;
    const type = frame.t;
    const seq = frame.s ?? 0;
    this.#events = this.#events
      .then(() => this.#options.onDispatch(type, frame.d, seq))
      .catch((error: unknown) => this.#options.info(`discord: ${type} not handled: ${String(error)}`));
  }

  #forget(): void {
    this.#sessionId = undefined;
    this.#resumeUrl = undefined;
    this.#seq = null;
    this.#options.onSession(undefined);
  }

  /** Ends a connection; a zombie is terminated (its close handshake would never complete). */
  #end(connection: Connection, code: number, terminate = false): void {
    if (connection.heartbeat) this.#options.clock.clearTimer(connection.heartbeat);
    if (terminate || connection.socket.readyState !== WebSocket.OPEN) connection.socket.terminate();
    else connection.socket.close(code);
  }

  #closedWith(connection: Connection, code: number, reason: string): void {
    if (connection.heartbeat) this.#options.clock.clearTimer(connection.heartbeat);
    if (this.#connection === connection) this.#connection = undefined;
    if (this.#stopped) return;
    const fatal = FATAL[code];
    if (fatal) {
      this.#stopped = true;
      this.#options.onState('error', fatal);
      return;
    }
    if (NEW_SESSION.has(code)) this.#forget();
    // A connection that stayed up long enough was healthy: its loss starts the ladder over.
    const { clock } = this.#options;
    if (connection.readyAt !== undefined && clock.now() - connection.readyAt >= (this.#options.stableMs ?? 60_000)) this.#reconnect.reset();
    this.#retry(`the gateway connection closed (${code}${reason ? ` ${reason}` : ''})`);
  }

  #retry(why: string): void {
    if (this.#stopped) return;
    this.#reconnect.schedule(() => void this.#open());
    this.#options.onState('reconnecting', `${why}; reconnecting (attempt ${this.#reconnect.attempts})`);
  }
}
