import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';

/**
 * A Discord double speaking Gateway v10 (HELLO, IDENTIFY with intents,
 * READY, heartbeats and ACKs, sequence numbers, RESUME with replay,
 * INVALID_SESSION, RECONNECT, close codes) and REST v10 (messages, typing,
 * reactions, history, DM channels, interaction callbacks, application
 * commands), refusing what Discord refuses: a bad token (401, close 4004),
 * messages over 2,000 characters or empty, a nonce over 25 characters,
 * malformed components, a second answer to an interaction, and requests past
 * a route's bucket (429 with retry_after).
 */

export const INTENTS = { GUILDS: 1 << 0, GUILD_MESSAGES: 1 << 9, DIRECT_MESSAGES: 1 << 12, MESSAGE_CONTENT: 1 << 15 } as const;

export interface DiscordUser {
  id: string;
  username: string;
  global_name?: string;
  bot?: boolean;
}

export interface RestCall {
  method: string;
  path: string;
  body: Record<string, unknown>;
  status: number;
  at: number;
}

interface StoredMessage {
  id: string;
  channel_id: string;
  guild_id?: string;
  author: DiscordUser;
  content: string;
  timestamp: string;
  nonce?: string;
  components?: unknown[];
  mentions: DiscordUser[];
  mention_everyone: boolean;
  attachments: Array<{ id: string; filename: string; size: number; url: string; content_type?: string }>;
  message_reference?: { message_id: string; channel_id: string };
  referenced_message?: StoredMessage | null;
  type: number;
}

interface FakeChannel {
  id: string;
  type: 0 | 1 | 11;
  guild_id?: string;
  parent_id?: string;
  name?: string;
  recipient?: DiscordUser;
  messages: StoredMessage[];
}

interface Session {
  id: string;
  seq: number;
  /** Every dispatch of this session, for RESUME replay. */
  log: Array<{ s: number; t: string; d: unknown }>;
  socket?: WebSocket;
  intents: number;
  resumable: boolean;
}

export interface PushOptions {
  /** Users the message @mentions (the bot's id mentions the bot). */
  mentions?: DiscordUser[];
  /** Answers this earlier message. */
  replyTo?: string;
  attachments?: Array<{ filename: string; bytes: Buffer; contentType?: string }>;
  /** Only stored in the channel's history: no dispatch (the bot was offline). */
  historyOnly?: boolean;
}

export interface FakeDiscord {
  apiRoot: string;
  bot: DiscordUser;
  applicationId: string;
  calls: RestCall[];
  /** Gateway connections opened, IDENTIFYs and RESUMEs received. */
  stats: { connections: number; identifies: number; resumes: number; heartbeats: number };
  /** Sockets open right now. */
  liveSockets(): number;
  /** A guild text channel (created on first use) or a DM channel with `user`. */
  guildChannel(guildId: string, channelId: string, name?: string): string;
  thread(guildId: string, parentId: string, threadId: string): string;
  dmChannel(user: DiscordUser): string;
  /** A user's message in a channel: stored, and dispatched as MESSAGE_CREATE to the live session (or kept for its RESUME). */
  pushMessage(channelId: string, author: DiscordUser, content: string, options?: PushOptions): string;
  /** A user picking a slash command from the menu: INTERACTION_CREATE of type 2 (refused when the command is not registered). */
  pushCommand(user: DiscordUser, channelId: string, name: string, args?: string): { id: string; token: string };
  /** The registered application commands. */
  commands(): Array<Record<string, unknown>>;
  /** A press of a button on a bot message: INTERACTION_CREATE; the answer is awaited with `waitFor`. */
  pushButton(user: DiscordUser, channelId: string, messageId: string, customId: string): { id: string; token: string };
  /** The messages of a channel, oldest first. */
  messages(channelId: string): StoredMessage[];
  /** Faults. */
  drop(code?: number): void;
  sendReconnect(): void;
  invalidateSession(resumable: boolean): void;
  /** Stops answering heartbeats (a zombie connection) until called with false. */
  zombie(on: boolean): void;
  /** The socket stays open but nothing more is read or sent on it (a half-open connection). */
  halfOpen(): void;
  /** New gateway connections are closed at once (an outage) until called with false. */
  refuseConnections(on: boolean, code?: number): void;
  /** The next `times` requests matching the route get 429 with this retry_after (seconds). */
  rateLimit(route: RegExp, times: number, retryAfterSeconds: number): void;
  waitFor(match: (call: RestCall) => boolean, timeoutMs?: number): Promise<RestCall>;
  refusals: Array<{ path: string; code: number; message: string }>;
  close(): Promise<void>;
}

export interface FakeDiscordOptions {
  token: string;
  heartbeatIntervalMs?: number;
  /** Requests per bucket window on the message routes of one channel (Discord: 5 per 5 s). */
  bucketLimit?: number;
  bucketWindowMs?: number;
}

const FATAL_BAD_TOKEN = 4004;

export async function startFakeDiscord(options: FakeDiscordOptions): Promise<FakeDiscord> {
  const bot: DiscordUser = { id: '900000000000000001', username: 'claw_test', bot: true };
  const applicationId = '900000000000000002';
  const heartbeatInterval = options.heartbeatIntervalMs ?? 41_250;
  const bucketLimit = options.bucketLimit ?? 5;
  const bucketWindow = options.bucketWindowMs ?? 5_000;
  let nextId = 1_100_000_000_000_000_000n;
  const snowflake = (): string => String(nextId++);
  const channels = new Map<string, FakeChannel>();
  const sessions = new Map<string, Session>();
  const calls: RestCall[] = [];
  const refusals: FakeDiscord['refusals'] = [];
  const watchers = new Set<{ match: (call: RestCall) => boolean; resolve: (call: RestCall) => void }>();
  const stats = { connections: 0, identifies: 0, resumes: 0, heartbeats: 0 };
  const sockets = new Set<WebSocket>();
  const buckets = new Map<string, { count: number; resetAt: number }>();
  const forced: Array<{ route: RegExp; times: number; retryAfter: number }> = [];
  /** Interactions waiting for their callback; a button's names the message a type 7 answer updates. */
  const interactions = new Map<string, { token: string; answered: boolean; at: number; message?: StoredMessage }>();
  const files = new Map<string, Buffer>();
  let zombie = false;
  let refusing: number | undefined;
  let commands: Array<Record<string, unknown>> = [];

  const server = createServer((req, res) => void handle(req, res));
  const wss = new WebSocketServer({ noServer: true });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;

  const channel = (id: string): FakeChannel | undefined => channels.get(id);

  function dispatch(session: Session, t: string, d: unknown): void {
    session.seq += 1;
    const event = { s: session.seq, t, d };
    session.log.push(event);
    if (session.socket?.readyState === 1 && !halfOpen.has(session.socket)) session.socket.send(JSON.stringify({ op: 0, ...event }));
  }

  function wants(session: Session, message: StoredMessage): boolean {
    const intent = message.guild_id ? INTENTS.GUILD_MESSAGES : INTENTS.DIRECT_MESSAGES;
    return (session.intents & intent) !== 0;
  }

  /** What a session sees of a message: without MESSAGE_CONTENT, Discord blanks the content of messages that do not mention the bot. */
  function visible(session: Session, message: StoredMessage): StoredMessage {
    if (session.intents & INTENTS.MESSAGE_CONTENT || !message.guild_id || message.mentions.some((u) => u.id === bot.id)) return message;
    return { ...message, content: '', attachments: [] };
  }

  function broadcast(message: StoredMessage): void {
    for (const session of sessions.values()) if (session.resumable && wants(session, message)) dispatch(session, 'MESSAGE_CREATE', visible(session, message));
  }

  const halfOpen = new Set<WebSocket>();

  server.on('upgrade', (req, socket, head) => {
    if (!req.url?.startsWith('/gateway')) {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => onSocket(ws, req.url ?? ''));
  });

  function onSocket(ws: WebSocket, url: string): void {
    stats.connections += 1;
    sockets.add(ws);
    ws.on('close', () => {
      sockets.delete(ws);
      halfOpen.delete(ws);
    });
    ws.on('error', () => undefined);
    if (refusing !== undefined) {
      ws.close(refusing, 'refused');
      return;
    }
    if (!/[?&]v=10\b/.test(url) || !/[?&]encoding=json\b/.test(url)) {
      ws.close(4012, 'Invalid API version');
      return;
    }
    let session: Session | undefined;
    let lastBeat = Date.now();
    const idle = setInterval(() => {
      // Discord closes a connection whose heartbeats stopped.
      if (Date.now() - lastBeat > heartbeatInterval * 2.5 && ws.readyState === 1 && !halfOpen.has(ws)) ws.close(4009, 'Session timed out');
    }, heartbeatInterval);
    ws.on('close', (code) => {
      clearInterval(idle);
      // A client closing with 1000 or 1001 ends its session: Discord will not resume it.
      if ((code === 1000 || code === 1001) && session?.socket === ws) session.resumable = false;
    });
    ws.send(JSON.stringify({ op: 10, d: { heartbeat_interval: heartbeatInterval }, s: null, t: null }));
    ws.on('message', (raw) => {
      if (halfOpen.has(ws)) return;
      let frame: { op?: number; d?: Record<string, unknown> | number | null };
      try {
        frame = JSON.parse(String(raw));
      } catch {
        ws.close(4002, 'Decode error');
        return;
      }
      const d = (frame.d ?? {}) as Record<string, unknown>;
      switch (frame.op) {
        case 1:
          stats.heartbeats += 1;
          lastBeat = Date.now();
          if (!zombie) ws.send(JSON.stringify({ op: 11, d: null, s: null, t: null }));
          return;
        case 2: {
          if (session) {
            ws.close(4005, 'Already authenticated');
            return;
          }
          stats.identifies += 1;
          if (d.token !== options.token) {
            ws.close(FATAL_BAD_TOKEN, 'Authentication failed');
            return;
          }
          const props = d.properties as Record<string, unknown> | undefined;
          if (typeof d.intents !== 'number' || !props?.os || !props.browser || !props.device) {
            ws.close(typeof d.intents !== 'number' ? 4013 : 4002, 'Invalid identify payload');
            return;
          }
          // A new IDENTIFY ends the token's other sessions, as Discord does for one shard.
          for (const other of sessions.values()) {
            other.resumable = false;
            other.socket?.close(4000, 'another session identified');
          }
          session = { id: `s${snowflake()}`, seq: 0, log: [], socket: ws, intents: d.intents, resumable: true };
          sessions.set(session.id, session);
          dispatch(session, 'READY', {
            v: 10,
            user: bot,
            session_id: session.id,
            resume_gateway_url: `ws://127.0.0.1:${port}/gateway-resume`,
            guilds: [],
            application: { id: applicationId, flags: 0 },
          });
          return;
        }
        case 6: {
          stats.resumes += 1;
          if (d.token !== options.token) {
            ws.close(FATAL_BAD_TOKEN, 'Authentication failed');
            return;
          }
          const found = sessions.get(String(d.session_id));
          if (!found?.resumable) {
            ws.send(JSON.stringify({ op: 9, d: false, s: null, t: null }));
            return;
          }
          found.socket?.close(4000, 'resumed elsewhere');
          found.socket = ws;
          session = found;
          const after = Number(d.seq);
          for (const event of found.log) if (event.s > after) ws.send(JSON.stringify({ op: 0, ...event }));
          dispatch(found, 'RESUMED', {});
          return;
        }
        default:
          if (!session) ws.close(4003, 'Not authenticated');
          else ws.close(4001, 'Unknown opcode');
      }
    });
  }

  function refuse(res: ServerResponse, path: string, status: number, code: number, message: string, extra: Record<string, unknown> = {}): void {
    refusals.push({ path, code, message });
    send(res, status, { message, code, ...extra });
  }

  function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(status === 204 ? undefined : JSON.stringify(body));
  }

  /** Discord's bucket for message routes: per channel (the major parameter) and method family. */
  function bucketOf(method: string, path: string): string | undefined {
    const match = /^\/channels\/(\d+)\/messages/.exec(path);
    if (!match) return undefined;
    return `${method === 'GET' ? 'read' : 'write'}:${match[1]}`;
  }

  function record(method: string, path: string, body: Record<string, unknown>, status: number): void {
    const call = { method, path, body, status, at: Date.now() };
    calls.push(call);
    for (const watcher of [...watchers]) {
      if (watcher.match(call)) {
        watchers.delete(watcher);
        watcher.resolve(call);
      }
    }
  }

  async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  }

  function componentsRefusal(components: unknown): string | undefined {
    if (components === undefined) return undefined;
    if (!Array.isArray(components) || components.length > 5) return 'components: at most 5 action rows';
    for (const row of components as Array<{ type?: number; components?: Array<Record<string, unknown>> }>) {
      if (row.type !== 1 || !Array.isArray(row.components) || row.components.length === 0 || row.components.length > 5)
        return 'components: each action row (type 1) holds 1 to 5 components';
      for (const button of row.components) {
        if (button.type !== 2) return 'components: only buttons (type 2) here';
        if (typeof button.label !== 'string' || button.label.length > 80) return 'components: a button label is at most 80 characters';
        if (typeof button.style !== 'number' || button.style < 1 || button.style > 4) return 'components: button style 1-4 needs a custom_id';
        if (typeof button.custom_id !== 'string' || button.custom_id.length === 0 || button.custom_id.length > 100)
          return 'components: custom_id is 1 to 100 characters';
      }
    }
    return undefined;
  }

  function contentRefusal(body: Record<string, unknown>, creating: boolean): string | undefined {
    const content = body.content;
    if (content !== undefined && typeof content !== 'string') return 'content must be a string';
    if (typeof content === 'string' && content.length > 2000) return 'Invalid Form Body: content: Must be 2000 or fewer in length.';
    if (creating && (typeof content !== 'string' || content.trim() === '') && !body.components) return 'Cannot send an empty message';
    return componentsRefusal(body.components);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', base);
    const method = req.method ?? 'GET';
    if (url.pathname.startsWith('/files/')) {
      const bytes = files.get(url.pathname);
      if (!bytes) send(res, 404, { message: 'Not found' });
      else {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.end(bytes);
      }
      return;
    }
    if (!url.pathname.startsWith('/api/v10/')) {
      refuse(res, url.pathname, 404, 0, '404: Not Found');
      return;
    }
    const path = url.pathname.slice('/api/v10'.length);
    let body: Record<string, unknown> = {};
    try {
      body = await readBody(req);
    } catch {
      refuse(res, path, 400, 50109, 'The request body contains invalid JSON.');
      return;
    }
    const interactionCallback = /^\/interactions\/(\d+)\/([^/]+)\/callback$/.exec(path);
    if (!interactionCallback && req.headers.authorization !== `Bot ${options.token}`) {
      record(method, path, body, 401);
      refuse(res, path, 401, 0, '401: Unauthorized');
      return;
    }
    const forcedLimit = forced.find((f) => f.route.test(`${method} ${path}`) && f.times > 0);
    if (forcedLimit) {
      forcedLimit.times -= 1;
      record(method, path, body, 429);
      refusals.push({ path, code: 429, message: 'You are being rate limited.' });
      send(
        res,
        429,
        { message: 'You are being rate limited.', retry_after: forcedLimit.retryAfter, global: false },
        { 'retry-after': String(Math.ceil(forcedLimit.retryAfter)), 'x-ratelimit-scope': 'user' },
      );
      return;
    }
    const bucketKey = bucketOf(method, path);
    let rateHeaders: Record<string, string> = {};
    if (bucketKey) {
      const now = Date.now();
      let bucket = buckets.get(bucketKey);
      if (!bucket || bucket.resetAt <= now) {
        bucket = { count: 0, resetAt: now + bucketWindow };
        buckets.set(bucketKey, bucket);
      }
      const resetAfter = ((bucket.resetAt - now) / 1000).toFixed(3);
      if (bucket.count >= bucketLimit) {
        record(method, path, body, 429);
        refusals.push({ path, code: 429, message: 'You are being rate limited.' });
        send(
          res,
          429,
          { message: 'You are being rate limited.', retry_after: Number(resetAfter), global: false },
          { 'x-ratelimit-limit': String(bucketLimit), 'x-ratelimit-remaining': '0', 'x-ratelimit-reset-after': resetAfter, 'x-ratelimit-bucket': bucketKey },
        );
        return;
      }
      bucket.count += 1;
      rateHeaders = {
        'x-ratelimit-limit': String(bucketLimit),
        'x-ratelimit-remaining': String(bucketLimit - bucket.count),
        'x-ratelimit-reset-after': resetAfter,
        'x-ratelimit-bucket': bucketKey,
      };
    }
    const reply = (status: number, payload: unknown): void => {
      record(method, path, body, status);
      send(res, status, payload, rateHeaders);
    };
    const fail = (status: number, code: number, message: string): void => {
      record(method, path, body, status);
      refuse(res, path, status, code, message);
    };

    if (method === 'GET' && path === '/gateway/bot')
      return reply(200, {
        url: `ws://127.0.0.1:${port}/gateway`,
        shards: 1,
        session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 },
      });
    if (method === 'GET' && path === '/users/@me') return reply(200, bot);
    if (method === 'POST' && path === '/users/@me/channels') {
      const recipient = String(body.recipient_id ?? '');
      if (!/^\d+$/.test(recipient)) return fail(400, 50035, 'Invalid Form Body: recipient_id');
      return reply(200, { id: dmOf({ id: recipient, username: `user${recipient}` }), type: 1, recipients: [{ id: recipient }] });
    }
    const appCommands = /^\/applications\/(\d+)\/commands$/.exec(path);
    if (appCommands) {
      if (appCommands[1] !== applicationId) return fail(403, 50001, 'Missing Access');
      if (method === 'GET') return reply(200, commands);
      if (method === 'PUT') {
        if (!Array.isArray(body)) return fail(400, 50035, 'Invalid Form Body: expected an array of commands');
        const list = body as unknown as Array<Record<string, unknown>>;
        if (list.length > 100) return fail(400, 30032, 'Maximum number of application commands reached (100)');
        for (const command of list) {
          if (typeof command.name !== 'string' || !/^[-_\p{Ll}\p{N}]{1,32}$/u.test(command.name))
            return fail(400, 50035, `Invalid Form Body: name ${String(command.name)}`);
          if (typeof command.description !== 'string' || command.description.length < 1 || command.description.length > 100)
            return fail(400, 50035, `Invalid Form Body: description of ${command.name} must be 1-100 characters`);
          for (const option of (command.options ?? []) as Array<Record<string, unknown>>)
            if (typeof option.description !== 'string' || option.description.length < 1 || option.description.length > 100)
              return fail(400, 50035, `Invalid Form Body: option description of ${command.name} must be 1-100 characters`);
        }
        commands = (body as unknown as Array<Record<string, unknown>>).map((c) => ({ ...c, id: snowflake(), application_id: applicationId }));
        return reply(200, commands);
      }
    }
    if (interactionCallback) {
      const interaction = interactions.get(interactionCallback[1]!);
      if (!interaction || interaction.token !== interactionCallback[2]) return fail(404, 10062, 'Unknown interaction');
      if (interaction.answered) return fail(400, 40060, 'Interaction has already been acknowledged.');
      if (Date.now() - interaction.at > 3_000) return fail(404, 10062, 'Unknown interaction');
      const type = body.type;
      if (type !== 4 && type !== 5 && type !== 6 && type !== 7) return fail(400, 50035, 'Invalid Form Body: type');
      const data = (body.data ?? {}) as Record<string, unknown>;
      if ((type === 4 || type === 7) && contentRefusal(data, false)) return fail(400, 50035, contentRefusal(data, false)!);
      interaction.answered = true;
      if (type === 7 && interaction.message)
        Object.assign(interaction.message, { content: data.content ?? interaction.message.content, components: data.components ?? [] });
      return reply(204, undefined);
    }
    const channelMatch = /^\/channels\/(\d+)(\/.*)?$/.exec(path);
    if (!channelMatch) return fail(404, 0, '404: Not Found');
    const target = channel(channelMatch[1]!);
    if (!target) return fail(404, 10003, 'Unknown Channel');
    const rest = channelMatch[2] ?? '';
    if (method === 'GET' && rest === '') return reply(200, channelInfo(target));
    if (method === 'POST' && rest === '/typing') return reply(204, undefined);
    if (method === 'GET' && rest === '/messages') {
      const limit = Number(url.searchParams.get('limit') ?? 50);
      if (!Number.isInteger(limit) || limit < 1 || limit > 100) return fail(400, 50035, 'Invalid Form Body: limit: int value should be between 1 and 100.');
      const after = url.searchParams.get('after');
      const picked = after ? target.messages.filter((m) => BigInt(m.id) > BigInt(after)).slice(0, limit) : target.messages.slice(-limit);
      // Discord answers newest first.
      return reply(200, [...picked].reverse());
    }
    if (method === 'POST' && rest === '/messages') {
      const refusal = contentRefusal(body, true);
      if (refusal) return fail(400, refusal.startsWith('Cannot send an empty') ? 50006 : 50035, refusal);
      const nonce = body.nonce;
      if (nonce !== undefined && (typeof nonce !== 'string' || nonce.length > 25))
        return fail(400, 50035, 'Invalid Form Body: nonce: Must be 25 or fewer in length.');
      if (body.enforce_nonce === true && typeof nonce === 'string') {
        const same = target.messages.find((m) => m.nonce === nonce && m.author.id === bot.id);
        if (same) return reply(200, same);
      }
      const reference = body.message_reference as { message_id?: string; fail_if_not_exists?: boolean } | undefined;
      const referenced = reference?.message_id ? target.messages.find((m) => m.id === reference.message_id) : undefined;
      if (reference?.message_id && !referenced && reference.fail_if_not_exists !== false)
        return fail(400, 50035, 'Invalid Form Body: message_reference: Unknown message');
      const message = store(target, bot, String(body.content ?? ''), {
        ...(typeof nonce === 'string' ? { nonce } : {}),
        ...(body.components ? { components: body.components as unknown[] } : {}),
        ...(referenced ? { referenced } : {}),
      });
      return reply(200, message);
    }
    const messageMatch = /^\/messages\/(\d+)(\/reactions\/([^/]+)\/@me)?$/.exec(rest);
    if (messageMatch) {
      const message = target.messages.find((m) => m.id === messageMatch[1]);
      if (!message) return fail(404, 10008, 'Unknown Message');
      if (messageMatch[2]) {
        if (method !== 'PUT') return fail(405, 0, '405: Method Not Allowed');
        const emoji = decodeURIComponent(messageMatch[3]!);
        if (emoji.length === 0 || /^[\w\s]+$/.test(emoji)) return fail(400, 10014, 'Unknown Emoji');
        return reply(204, undefined);
      }
      if (method === 'PATCH') {
        if (message.author.id !== bot.id) return fail(403, 50005, 'Cannot edit a message authored by another user');
        const refusal = contentRefusal(body, false);
        if (refusal) return fail(400, 50035, refusal);
        if (typeof body.content === 'string') message.content = body.content;
        if (body.components !== undefined) message.components = body.components as unknown[];
        return reply(200, message);
      }
      if (method === 'DELETE') {
        target.messages.splice(target.messages.indexOf(message), 1);
        return reply(204, undefined);
      }
    }
    return fail(404, 0, '404: Not Found');
  }

  function channelInfo(target: FakeChannel): Record<string, unknown> {
    return {
      id: target.id,
      type: target.type,
      ...(target.guild_id ? { guild_id: target.guild_id } : {}),
      ...(target.parent_id ? { parent_id: target.parent_id } : {}),
      ...(target.name ? { name: target.name } : {}),
      ...(target.recipient ? { recipients: [target.recipient] } : {}),
    };
  }

  function store(
    target: FakeChannel,
    author: DiscordUser,
    content: string,
    extra: { nonce?: string; components?: unknown[]; referenced?: StoredMessage; mentions?: DiscordUser[]; attachments?: StoredMessage['attachments'] } = {},
  ): StoredMessage {
    const message: StoredMessage = {
      id: snowflake(),
      channel_id: target.id,
      ...(target.guild_id ? { guild_id: target.guild_id } : {}),
      author,
      content,
      timestamp: new Date().toISOString(),
      mentions: extra.mentions ?? [],
      mention_everyone: false,
      attachments: extra.attachments ?? [],
      type: extra.referenced ? 19 : 0,
      ...(extra.nonce ? { nonce: extra.nonce } : {}),
      ...(extra.components ? { components: extra.components } : {}),
      ...(extra.referenced ? { message_reference: { message_id: extra.referenced.id, channel_id: target.id }, referenced_message: extra.referenced } : {}),
    };
    target.messages.push(message);
    return message;
  }

  function dmOf(user: DiscordUser): string {
    for (const c of channels.values()) if (c.type === 1 && c.recipient?.id === user.id) return c.id;
    const id = snowflake();
    channels.set(id, { id, type: 1, recipient: user, messages: [] });
    return id;
  }

  return {
    apiRoot: `${base}/api`,
    bot,
    applicationId,
    calls,
    stats,
    refusals,
    liveSockets: () => [...sockets].filter((s) => s.readyState === 1).length,
    guildChannel(guildId, channelId, name) {
      if (!channels.has(channelId)) channels.set(channelId, { id: channelId, type: 0, guild_id: guildId, name: name ?? `channel-${channelId}`, messages: [] });
      return channelId;
    },
    thread(guildId, parentId, threadId) {
      if (!channels.has(threadId))
        channels.set(threadId, { id: threadId, type: 11, guild_id: guildId, parent_id: parentId, name: `thread-${threadId}`, messages: [] });
      return threadId;
    },
    dmChannel: (user) => dmOf(user),
    pushMessage(channelId, author, content, push = {}) {
      const target = channel(channelId);
      if (!target) throw new Error(`no channel ${channelId} in the fake`);
      const referenced = push.replyTo ? target.messages.find((m) => m.id === push.replyTo) : undefined;
      const attachments = (push.attachments ?? []).map((a) => {
        const id = snowflake();
        const file = `/files/${id}/${a.filename}`;
        files.set(file, a.bytes);
        return { id, filename: a.filename, size: a.bytes.length, url: `${base}${file}`, ...(a.contentType ? { content_type: a.contentType } : {}) };
      });
      const message = store(target, author, content, {
        ...(push.mentions ? { mentions: push.mentions } : {}),
        ...(referenced ? { referenced } : {}),
        attachments,
      });
      if (!push.historyOnly) broadcast(message);
      return message.id;
    },
    pushButton(user, channelId, messageId, customId) {
      const target = channel(channelId);
      const message = target?.messages.find((m) => m.id === messageId);
      if (!target || !message) throw new Error(`no message ${messageId} in ${channelId}`);
      const id = snowflake();
      const token = `itok-${id}`;
      interactions.set(id, { token, answered: false, at: Date.now(), message });
      const payload = {
        id,
        application_id: applicationId,
        type: 3,
        token,
        version: 1,
        channel_id: channelId,
        ...(target.guild_id ? { guild_id: target.guild_id, member: { user } } : { user }),
        message,
        data: { custom_id: customId, component_type: 2 },
      };
      for (const session of sessions.values()) if (session.resumable) dispatch(session, 'INTERACTION_CREATE', payload);
      return { id, token };
    },
    messages: (channelId) => channel(channelId)?.messages ?? [],
    commands: () => commands,
    pushCommand(user, channelId, name, args) {
      const target = channel(channelId);
      if (!target) throw new Error(`no channel ${channelId} in the fake`);
      if (!commands.some((c) => c.name === name)) throw new Error(`the command /${name} is not registered`);
      const id = snowflake();
      const token = `itok-${id}`;
      interactions.set(id, { token, answered: false, at: Date.now() });
      const payload = {
        id,
        application_id: applicationId,
        type: 2,
        token,
        version: 1,
        channel_id: channelId,
        ...(target.guild_id ? { guild_id: target.guild_id, member: { user } } : { user }),
        data: { id: snowflake(), name, type: 1, ...(args !== undefined ? { options: [{ name: 'args', type: 3, value: args }] } : {}) },
      };
      for (const session of sessions.values()) if (session.resumable) dispatch(session, 'INTERACTION_CREATE', payload);
      return { id, token };
    },
    drop(code = 1006) {
      for (const socket of sockets) {
        if (code === 1006) socket.terminate();
        else socket.close(code, 'dropped by the test');
      }
    },
    sendReconnect() {
      for (const socket of sockets) socket.send(JSON.stringify({ op: 7, d: null, s: null, t: null }));
    },
    invalidateSession(resumable) {
      for (const session of sessions.values()) {
        if (!resumable) session.resumable = false;
        session.socket?.send(JSON.stringify({ op: 9, d: resumable, s: null, t: null }));
      }
    },
    zombie(on) {
      zombie = on;
    },
    halfOpen() {
      for (const socket of sockets) halfOpen.add(socket);
    },
    refuseConnections(on, code = 1011) {
      refusing = on ? code : undefined;
    },
    rateLimit(route, times, retryAfter) {
      forced.push({ route, times, retryAfter });
    },
    waitFor(match, timeoutMs = 10_000) {
      const earlier = calls.find(match);
      if (earlier) return Promise.resolve(earlier);
      return new Promise<RestCall>((resolve, reject) => {
        const watcher = {
          match,
          resolve: (call: RestCall) => {
            clearTimeout(timer);
            resolve(call);
          },
        };
        const timer = setTimeout(() => {
          watchers.delete(watcher);
          reject(new Error(`no matching Discord call within ${timeoutMs} ms; calls: ${calls.map((c) => `${c.method} ${c.path} ${c.status}`).join(', ')}`));
        }, timeoutMs);
        watchers.add(watcher);
      });
    },
    async close() {
      for (const socket of sockets) socket.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
