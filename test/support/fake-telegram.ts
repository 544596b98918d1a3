import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { telegramTextRefusal } from './strict-telegram.js';

/** One Bot API call as the fake server received it. */
export interface TelegramCall {
  method: string;
  token: string;
  params: Record<string, unknown>;
  at: number;
}

export interface FakeFailure {
  code: number;
  description: string;
  retryAfter?: number;
  /** A group upgraded to a supergroup: the answer names the new chat id. */
  migrateTo?: number;
}

export interface FakeUser {
  id: number;
  first_name: string;
  last_name?: string;
  username?: string;
  is_bot?: boolean;
}

export interface FakeChat {
  id: number;
  type: 'private' | 'group' | 'supergroup';
  title?: string;
  is_forum?: boolean;
}

export interface FakeMessageOptions {
  threadId?: number;
  replyToBot?: boolean;
  photo?: { fileId: string; bytes: Buffer };
  document?: { fileId: string; name: string; bytes: Buffer };
  voice?: { fileId: string; bytes: Buffer };
  /** More fields of the Message object, as the Bot API reference names them (media_group_id, forward_origin, location …). */
  extra?: Record<string, unknown>;
}

export interface FakeTelegram {
  /** The `apiRoot` to hand grammY (no trailing slash). */
  apiRoot: string;
  bot: FakeUser;
  calls: TelegramCall[];
  /** Calls of one method, in order. */
  callsOf(method: string): TelegramCall[];
  /** Queues a raw update; its update_id is assigned. */
  pushUpdate(update: Record<string, unknown>): number;
  /** Queues a text message from `from` in `chat`; returns the update_id. */
  pushMessage(chat: FakeChat, from: FakeUser, text: string, options?: FakeMessageOptions): number;
  /** Queues an edited_message: the message `messageId` in `chat` now reads `text`. */
  pushEdit(chat: FakeChat, from: FakeUser, messageId: number, text: string): number;
  /** Queues a press of an inline button on a message the bot sent. */
  pushCallback(from: FakeUser, message: { chatId: number; messageId: number }, data: string): number;
  /** The next calls of `method` fail with this answer (429 with retry_after, 409, 400 …). */
  failNext(method: string, failure: FakeFailure, times?: number): void;
  /** Resolves once a call matching `match` has been made (including earlier ones). */
  waitFor(match: (call: TelegramCall) => boolean, timeoutMs?: number): Promise<TelegramCall>;
  /** The highest offset a getUpdates confirmed (updates below it are gone, as on Telegram). */
  confirmedOffset(): number;
  /** How many getUpdates answered 409 because another poll was already waiting. */
  conflicts: number;
  /** Called each time a getUpdates answer carrying updates is written (the crash tests kill right after). */
  onUpdatesServed(listener: (count: number) => void): () => void;
  /** Changes `sendDelayMs` for the sendMessage calls that come after. */
  setSendDelay(ms: number): void;
  /** Texts refused as the real Bot API refuses them (strict-telegram.ts), in order. */
  refusals: Array<{ method: string; description: string; text: string }>;
  close(): Promise<void>;
}

const BOT: FakeUser = { id: 777000, first_name: 'Claw Test', username: 'claw_test_bot', is_bot: true };

interface Waiting {
  res: ServerResponse;
  offset: number;
  limit: number;
  timer: NodeJS.Timeout;
}

/**
 * A fake Telegram Bot API server on 127.0.0.1:0 speaking the real HTTP API:
 * POST /bot<token>/<method> with JSON or form bodies, answers
 * `{ok, result}` or `{ok: false, error_code, description, parameters}`, and
 * GET /file/bot<token>/<path> for downloads. getUpdates long-polls with
 * offset/timeout semantics, and a second concurrent poll makes the first
 * answer 409 as Telegram does.
 */
/**
 * `sendDelayMs`: a sendMessage is taken (recorded and answered) only after
 * this long, and only if its sender is still connected: a gateway killed
 * meanwhile never reached Telegram, so a crash test can tell a reply that
 * went out from one the restart still owes.
 */
export async function startFakeTelegram(options: { token?: string; sendDelayMs?: number } = {}): Promise<FakeTelegram> {
  const calls: TelegramCall[] = [];
  const refusals: FakeTelegram['refusals'] = [];
  let sendDelayMs = options.sendDelayMs ?? 0;
  const updates: Array<{ update_id: number } & Record<string, unknown>> = [];
  const failures = new Map<string, FakeFailure[]>();
  const files = new Map<string, { path: string; bytes: Buffer }>();
  const watchers = new Set<{ match: (call: TelegramCall) => boolean; resolve: (call: TelegramCall) => void }>();
  let nextUpdateId = 1000;
  let nextMessageId = 1;
  let confirmed = 0;
  let waiting: Waiting | undefined;
  let conflicts = 0;
  const sockets = new Set<import('node:net').Socket>();
  const servedListeners = new Set<(count: number) => void>();
  const served = (res: ServerResponse, batch: unknown[]): void => {
    ok(res, batch);
    if (batch.length > 0) for (const listener of servedListeners) listener(batch.length);
  };

  const send = (res: ServerResponse, status: number, body: unknown): void => {
    if (res.writableEnded) return;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const ok = (res: ServerResponse, result: unknown): void => send(res, 200, { ok: true, result });

  const pending = (offset: number, limit: number): unknown[] => updates.filter((u) => u.update_id >= offset).slice(0, limit);

  const flushWaiting = (): void => {
    if (!waiting) return;
    const batch = pending(waiting.offset, waiting.limit);
    if (batch.length === 0) return;
    const current = waiting;
    waiting = undefined;
    clearTimeout(current.timer);
    served(current.res, batch);
  };

  const confirm = (offset: number): void => {
    if (offset <= confirmed) return;
    confirmed = offset;
    for (let i = updates.length - 1; i >= 0; i--) if (updates[i]!.update_id < offset) updates.splice(i, 1);
  };

  const record = (call: TelegramCall): void => {
    calls.push(call);
    for (const watcher of watchers)
      if (watcher.match(call)) {
        watchers.delete(watcher);
        watcher.resolve(call);
      }
  };

  const sentMessage = (params: Record<string, unknown>, messageId?: number): Record<string, unknown> => ({
    message_id: messageId ?? nextMessageId++,
    date: Math.floor(Date.now() / 1000),
    chat: { id: Number(params.chat_id), type: Number(params.chat_id) < 0 ? 'supergroup' : 'private' },
    from: BOT,
    text: params.text,
    ...(params.message_thread_id !== undefined ? { message_thread_id: Number(params.message_thread_id) } : {}),
  });

  const handle = (method: string, params: Record<string, unknown>, res: ServerResponse): void => {
    const queued = failures.get(method);
    const failure = queued?.shift();
    if (queued && queued.length === 0) failures.delete(method);
    if (failure) {
      send(res, failure.code, {
        ok: false,
        error_code: failure.code,
        description: failure.description,
        ...(failure.retryAfter !== undefined ? { parameters: { retry_after: failure.retryAfter } } : {}),
        ...(failure.migrateTo !== undefined ? { parameters: { migrate_to_chat_id: failure.migrateTo } } : {}),
      });
      return;
    }
    switch (method) {
      case 'getMe':
        return ok(res, BOT);
      case 'deleteWebhook':
        return ok(res, true);
      case 'getUpdates': {
        const offset = Number(params.offset ?? 0);
        const limit = Number(params.limit ?? 100);
        const timeout = Number(params.timeout ?? 0);
        if (offset > 0) confirm(offset);
        if (waiting) {
          // Telegram ends the older poll when a newer one arrives.
          const older = waiting;
          waiting = undefined;
          clearTimeout(older.timer);
          conflicts += 1;
          send(older.res, 409, {
            ok: false,
            error_code: 409,
            description: 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
          });
        }
        const batch = pending(offset, limit);
        if (batch.length > 0 || timeout <= 0) return served(res, batch);
        const timer = setTimeout(() => {
          if (waiting?.res === res) waiting = undefined;
          ok(res, []);
        }, timeout * 1000);
        waiting = { res, offset, limit, timer };
        res.on('close', () => {
          if (waiting?.res === res) {
            clearTimeout(timer);
            waiting = undefined;
          }
        });
        return;
      }
      case 'sendMessage':
      case 'editMessageText': {
        const refusal = telegramTextRefusal(params);
        if (refusal) {
          refusals.push({ method, description: refusal, text: String(params.text ?? '') });
          return send(res, 400, { ok: false, error_code: 400, description: refusal });
        }
        return ok(res, method === 'sendMessage' ? sentMessage(params) : sentMessage(params, Number(params.message_id)));
      }
      case 'answerCallbackQuery':
      case 'sendChatAction':
      case 'setMessageReaction':
        return ok(res, true);
      case 'getFile': {
        const file = files.get(String(params.file_id));
        if (!file) return send(res, 400, { ok: false, error_code: 400, description: 'Bad Request: invalid file_id' });
        return ok(res, { file_id: params.file_id, file_unique_id: `u${params.file_id}`, file_size: file.bytes.length, file_path: file.path });
      }
      default:
        return send(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
    }
  };

  const readBody = async (req: IncomingMessage): Promise<Record<string, unknown>> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    if (!raw) return {};
    const type = req.headers['content-type'] ?? '';
    if (type.includes('application/json')) return JSON.parse(raw) as Record<string, unknown>;
    if (type.includes('x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(raw));
    throw new Error(`unsupported content-type ${type}`);
  };

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const fileMatch = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
    if (fileMatch && req.method === 'GET') {
      const file = [...files.values()].find((f) => f.path === fileMatch[2]);
      if (!file) return send(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': file.bytes.length });
      res.end(file.bytes);
      return;
    }
    const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
    if (!match) return send(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
    const [, token, method] = match as unknown as [string, string, string];
    if (options.token && token !== options.token) return send(res, 401, { ok: false, error_code: 401, description: 'Unauthorized' });
    readBody(req).then(
      (params) => {
        const take = (): void => {
          record({ method, token, params, at: Date.now() });
          handle(method, params, res);
        };
        if (method !== 'sendMessage' || !sendDelayMs) return take();
        const timer = setTimeout(take, sendDelayMs);
        res.on('close', () => {
          if (!res.writableEnded) clearTimeout(timer);
        });
      },
      (error: unknown) => send(res, 400, { ok: false, error_code: 400, description: `Bad Request: ${String(error)}` }),
    );
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const pushUpdate = (update: Record<string, unknown>): number => {
    nextUpdateId += 1;
    updates.push({ ...update, update_id: nextUpdateId });
    setImmediate(flushWaiting);
    return nextUpdateId;
  };

  const addFile = (fileId: string, bytes: Buffer, name: string): void => {
    files.set(fileId, { path: `files/${fileId}/${name}`, bytes });
  };

  return {
    apiRoot: `http://127.0.0.1:${port}`,
    bot: BOT,
    calls,
    refusals,
    callsOf: (method) => calls.filter((c) => c.method === method),
    pushUpdate,
    pushMessage(chat, from, text, opts = {}) {
      const message: Record<string, unknown> = {
        message_id: nextMessageId++,
        date: Math.floor(Date.now() / 1000),
        chat,
        from,
      };
      if (opts.photo) {
        addFile(opts.photo.fileId, opts.photo.bytes, 'photo.jpg');
        message.photo = [{ file_id: opts.photo.fileId, file_unique_id: `u${opts.photo.fileId}`, width: 90, height: 90 }];
        if (text) message.caption = text;
      } else if (opts.document) {
        addFile(opts.document.fileId, opts.document.bytes, opts.document.name);
        message.document = { file_id: opts.document.fileId, file_unique_id: `u${opts.document.fileId}`, file_name: opts.document.name };
        if (text) message.caption = text;
      } else if (opts.voice) {
        addFile(opts.voice.fileId, opts.voice.bytes, 'voice.ogg');
        message.voice = { file_id: opts.voice.fileId, file_unique_id: `u${opts.voice.fileId}`, duration: 2 };
        if (text) message.caption = text;
      } else {
        message.text = text;
      }
      if (opts.threadId !== undefined) {
        message.message_thread_id = opts.threadId;
        message.is_topic_message = true;
      }
      if (opts.replyToBot) message.reply_to_message = { message_id: 1, date: 0, chat, from: BOT, text: 'earlier' };
      Object.assign(message, opts.extra);
      return pushUpdate({ message });
    },
    pushEdit(chat, from, messageId, text) {
      const now = Math.floor(Date.now() / 1000);
      return pushUpdate({ edited_message: { message_id: messageId, date: now - 5, edit_date: now, chat, from, text } });
    },
    pushCallback(from, target, data) {
      return pushUpdate({
        callback_query: {
          id: `cb${nextUpdateId + 1}`,
          from,
          chat_instance: 'ci',
          data,
          message: { message_id: target.messageId, date: 0, chat: { id: target.chatId, type: 'private' }, from: BOT, text: 'approval' },
        },
      });
    },
    failNext(method, failure, times = 1) {
      const list = failures.get(method) ?? [];
      for (let i = 0; i < times; i++) list.push(failure);
      failures.set(method, list);
    },
    waitFor(match, timeoutMs = 10_000) {
      const earlier = calls.find(match);
      if (earlier) return Promise.resolve(earlier);
      return new Promise<TelegramCall>((resolve, reject) => {
        const watcher = {
          match,
          resolve: (call: TelegramCall) => {
            clearTimeout(timer);
            resolve(call);
          },
        };
        const timer = setTimeout(() => {
          watchers.delete(watcher);
          reject(new Error(`no matching Telegram call within ${timeoutMs} ms; calls: ${calls.map((c) => c.method).join(', ')}`));
        }, timeoutMs);
        watchers.add(watcher);
      });
    },
    confirmedOffset: () => confirmed,
    get conflicts() {
      return conflicts;
    },
    onUpdatesServed(listener) {
      servedListeners.add(listener);
      return () => servedListeners.delete(listener);
    },
    setSendDelay(ms) {
      sendDelayMs = ms;
    },
    async close() {
      if (waiting) clearTimeout(waiting.timer);
      waiting = undefined;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
