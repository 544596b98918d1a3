import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { Api, GrammyError } from 'grammy';
import type { Message, Update } from 'grammy/types';
import { sleepOn, type Clock, type TelegramAccountConfig, type TimerHandle } from '../../config/index.js';
import type { ReplyRoute } from '../../protocol/index.js';
import type { Channel, ChannelReply, ChannelSendResult, ChannelStatus } from '../channel.js';
import type { InboundMessage, InboundSink } from '../../queue/index.js';
import { ReconnectPolicy } from '../reconnect.js';
import { CONFLICT_REASON, PollConflict } from './poll-conflict.js';
import { TokenLock } from '../token-lock.js';
import { OffsetStore } from './poll-state.js';
import { contentOf, contextLines, forwardedBody, type TelegramMedia } from './telegram-content.js';
import { decideAccess, senderName, TELEGRAM_CHANNEL } from './telegram-inbound.js';
import { MigrationStore } from './migrations.js';
import { describeTelegramError, TelegramSender } from './telegram-send.js';

export interface CallbackPress {
  id: string;
  senderId: string;
  senderName: string;
  data: string;
  chatId: string;
  messageId: string;
}

export interface TelegramChannelOptions {
  accountId: string;
  token: string;
  config: () => TelegramAccountConfig;
  clock: Clock;
  /** `<state>/channels/telegram`: the poller locks and offsets. */
  stateDir: string;
  /** Names this poller in the lock file (unique per gateway instance). */
  lockOwner: string;
  /** The workspace folder a message's media is saved under. */
  workspaceFor(message: InboundMessage): string;
  isApproved(senderId: string): boolean;
  /** An unknown sender under dmPolicy pairing: the text to send them, or undefined to stay silent. */
  onPairing(request: { senderId: string; senderName: string; chatId: string }): string | undefined;
  /** An inline button press; resolves to the toast shown to the presser. */
  onCallback(press: CallbackPress): Promise<string>;
  onStatus(): void;
  warn(message: string): void;
  info(message: string): void;
  /** Tests shorten these; defaults per SPEC. */
  reconnectFirstDelayMs?: number;
  lockRetryMs?: number;
  watchdogMs?: number;
}

const WATCHDOG_MS = 120_000;
/** How long to wait for the rest of an album whose last part ended a poll, per extra poll (at most ALBUM_POLLS of them). */
const ALBUM_WAIT_SECONDS = 1;
const ALBUM_POLLS = 3;
const UPDATES: ReadonlyArray<'message' | 'edited_message' | 'callback_query' | 'my_chat_member'> = [
  'message',
  'edited_message',
  'callback_query',
  'my_chat_member',
];

type GrammySignal = Parameters<Api['getMe']>[0];
/** grammY's Node typings name a polyfill's AbortSignal; Node's own is what it receives at run time. */
const grammySignal = (signal: AbortSignal): GrammySignal => signal as unknown as GrammySignal;
const LOCK_RETRY_MS = 5_000;

/**
 * One Telegram bot account over long polling (webhook mode is out of
 * scope). The getUpdates offset is committed only after every update below
 * it was handed to the sink and the sink resolved (the inbound journal has
 * it), so a crash re-reads what was not yet durable and the journal's
 * dedupe drops the copies.
 */
export class TelegramChannel implements Channel {
  readonly id = TELEGRAM_CHANNEL;
  readonly accountId: string;
  readonly #options: TelegramChannelOptions;
  readonly #api: Api;
  readonly #sender: TelegramSender;
  readonly #lock: TokenLock;
  readonly #offsets: OffsetStore;
  readonly #reconnect: ReconnectPolicy;
  readonly #conflict: PollConflict;
  readonly #migrations: MigrationStore;
  readonly #stop = new AbortController();
  #handled = 0;
  readonly #ignored: Record<string, number> = {};
  #status: ChannelStatus;
  #bot: { id: number; username: string } | undefined;
  #poll: AbortController | undefined;
  #lastPollEnded: number;
  #watchdog: TimerHandle | undefined;
  #loop: Promise<void> | undefined;

  constructor(options: TelegramChannelOptions) {
    this.#options = options;
    this.accountId = options.accountId;
    this.#api = new Api(options.token, { apiRoot: options.config().apiRoot });
    this.#sender = new TelegramSender({ api: this.#api, token: options.token, clock: options.clock });
    this.#lock = new TokenLock(join(options.stateDir, 'locks'), options.token, options.lockOwner);
    this.#offsets = new OffsetStore(join(options.stateDir, 'offsets'), options.token);
    this.#migrations = new MigrationStore(join(options.stateDir, `migrations-${options.accountId}.json`));
    this.#reconnect = new ReconnectPolicy({ clock: options.clock, ...(options.reconnectFirstDelayMs ? { firstDelayMs: options.reconnectFirstDelayMs } : {}) });
    this.#conflict = new PollConflict({ clock: options.clock, firstDelayMs: options.reconnectFirstDelayMs ?? 5_000 });
    this.#status = { channel: TELEGRAM_CHANNEL, accountId: options.accountId, state: 'stopped', reconnectAttempts: 0 };
    this.#lastPollEnded = options.clock.now();
  }

  status(): ChannelStatus {
    return {
      ...this.#status,
      reconnectAttempts: this.#reconnect.attempts,
      lastOutboundAt: this.#sender.lastSentAt,
      handled: this.#handled,
      ignored: { ...this.#ignored },
    };
  }

  /** The bot's own user id (approval buttons are checked against the chat they were sent to). */
  get botId(): number | undefined {
    return this.#bot?.id;
  }

  async start(sink: InboundSink): Promise<void> {
    this.#set('starting');
    this.#loop = this.#run(sink).catch((error: unknown) => this.#set('error', `polling stopped: ${describeTelegramError(error, this.#options.token)}`));
    const every = Math.min(30_000, this.#options.watchdogMs ?? WATCHDOG_MS);
    const tick = (): void => {
      this.#checkWatchdog();
      if (!this.#stop.signal.aborted) this.#watchdog = this.#options.clock.setTimer(tick, every);
    };
    this.#watchdog = this.#options.clock.setTimer(tick, every);
  }

  async stop(): Promise<void> {
    this.#stop.abort(new Error('channel stopped'));
    this.#poll?.abort(new Error('channel stopped'));
    if (this.#watchdog) this.#options.clock.clearTimer(this.#watchdog);
    this.#reconnect.cancel();
    await this.#loop;
    this.#lock.release();
    this.#set('stopped');
  }

  send(route: ReplyRoute, reply: ChannelReply): Promise<ChannelSendResult> {
    return this.#sender.send(route, reply);
  }

  react(route: ReplyRoute, messageId: string, emoji: string): Promise<ChannelSendResult> {
    return this.#sender.react(route, messageId, emoji);
  }

  typing(route: ReplyRoute): void {
    this.#sender.typing(route);
  }

  #set(state: ChannelStatus['state'], reason?: string): void {
    const changed = this.#status.state !== state || this.#status.reason !== reason;
    this.#status = { ...this.#status, state, ...(reason ? { reason } : { reason: undefined }) };
    if (changed) this.#options.onStatus();
  }

  /** A poll that has not completed for the watchdog's time is aborted, and the loop polls again. */
  #checkWatchdog(): void {
    const limit = this.#options.watchdogMs ?? WATCHDOG_MS;
    if (this.#poll && this.#options.clock.now() - this.#lastPollEnded > limit) {
      this.#options.warn(`telegram ${this.accountId}: no poll completed for ${Math.round(limit / 1000)} s; restarting polling`);
      this.#poll.abort(new Error('poll watchdog'));
    }
  }

  async #sleep(ms: number): Promise<void> {
    await sleepOn(this.#options.clock, ms, this.#stop.signal).catch(() => undefined);
  }

  async #run(sink: InboundSink): Promise<void> {
    let offset = this.#offsets.read();
    while (!this.#stop.signal.aborted) {
      if (!this.#lock.held) {
        const taken = this.#lock.tryAcquire();
        if (!taken.acquired) {
          this.#set('reconnecting', `another gateway (pid ${taken.holder.pid}) is polling this bot; waiting for it to stop`);
          await this.#sleep(this.#options.lockRetryMs ?? LOCK_RETRY_MS);
          continue;
        }
      }
      try {
        if (!this.#bot) {
          const me = await this.#api.getMe(grammySignal(this.#stop.signal));
          this.#bot = { id: me.id, username: me.username };
          this.#status.identity = `@${me.username}`;
          this.#set('running');
        }
        const updates = await this.#getUpdates(offset, this.#options.config().pollTimeoutSeconds);
        // An album whose parts straddle two polls: its last part ended this one, so the rest is fetched before any part is handled.
        for (let more = 0; more < ALBUM_POLLS && updates.at(-1)?.message?.media_group_id !== undefined; more += 1) {
          const rest = await this.#getUpdates(updates.at(-1)!.update_id + 1, ALBUM_WAIT_SECONDS);
          if (rest.length === 0) break;
          updates.push(...rest);
        }
        this.#conflict.polled();
        if (!this.#conflict.contested()) this.#reconnect.reset();
        this.#set('running');
        for (const batch of batched(updates)) await this.#handle(batch, sink);
        const last = updates[updates.length - 1];
        if (last) {
          offset = last.update_id + 1;
          await this.#offsets.commit(offset);
        }
      } catch (error) {
        const watchdog = this.#poll?.signal.aborted === true;
        this.#poll = undefined;
        this.#lastPollEnded = this.#options.clock.now();
        if (this.#stop.signal.aborted) break;
        if (watchdog) continue;
        if (!(await this.#recover(error))) break;
      }
    }
  }

  async #getUpdates(offset: number, timeout: number): Promise<Update[]> {
    this.#poll = new AbortController();
    const updates = await this.#api.getUpdates({ offset, timeout, limit: 100, allowed_updates: [...UPDATES] }, grammySignal(this.#poll.signal));
    this.#poll = undefined;
    this.#lastPollEnded = this.#options.clock.now();
    return updates;
  }

  /** After a failed poll: wait as Telegram or the reconnect policy says; false when the channel gives up. */
  async #recover(error: unknown): Promise<boolean> {
    const described = describeTelegramError(error, this.#options.token);
    if (error instanceof GrammyError && (error.error_code === 401 || error.error_code === 404)) {
      this.#set('error', `Telegram refused the bot token (${error.error_code}); check it with @BotFather, then run \`claw channels login telegram\``);
      return false;
    }
    if (error instanceof GrammyError && error.error_code === 429) {
      await this.#sleep((error.parameters.retry_after ?? 1) * 1000);
      return true;
    }
    if (error instanceof GrammyError && error.error_code === 409 && /webhook/i.test(error.description)) {
      this.#set('error', 'a webhook is set for this bot, so Telegram refuses long polling (409); remove it with deleteWebhook, then restart the gateway');
      return false;
    }
    if (error instanceof GrammyError && error.error_code === 409) return this.#onConflict();
    const delay = this.#reconnect.next();
    if (delay === undefined) {
      this.#set('error', `gave up after ${this.#reconnect.attempts} reconnect attempts: ${described}`);
      return false;
    }
    this.#set('reconnecting', described);
    await this.#sleep(delay);
    return true;
  }

  /** Telegram ended a poll because another one came (409): reclaim the token at once, or show why and back off. */
  async #onConflict(): Promise<boolean> {
    if (this.#conflict.conflict() === 'reclaim') {
      this.#options.warn(`telegram ${this.accountId}: another poller appeared on this bot token; polling again to keep it`);
      return true;
    }
    const delay = this.#reconnect.next();
    if (delay === undefined) {
      this.#set('error', `${CONFLICT_REASON} (stopped polling after ${this.#reconnect.attempts} attempts; restart the gateway to try again)`);
      return false;
    }
    this.#set('error', CONFLICT_REASON);
    await this.#sleep(delay);
    return true;
  }

  #ignore(reason: string, why: string): void {
    this.#ignored[reason] = (this.#ignored[reason] ?? 0) + 1;
    this.#options.info(`telegram ${this.accountId}: update ignored (${reason}): ${why}`);
  }

  async #handle(batch: Batch, sink: InboundSink): Promise<void> {
    const update = batch.update;
    if (update.callback_query) {
      const query = update.callback_query;
      const press: CallbackPress = {
        id: query.id,
        senderId: String(query.from.id),
        senderName: senderName(query.from),
        data: query.data ?? '',
        chatId: String(query.message?.chat.id ?? ''),
        messageId: String(query.message?.message_id ?? ''),
      };
      const toast = await this.#options.onCallback(press).catch((error: unknown) => `Could not answer: ${String(error)}`);
      await this.#sender.answerCallback(query.id, toast);
      return;
    }
    if (update.my_chat_member) return this.#memberChanged(update.my_chat_member);
    const edited = update.edited_message;
    const message = batch.edit ?? update.message ?? edited;
    if (!message || !this.#bot) return this.#ignore('unknown update', `update ${update.update_id} carries nothing claw reads`);
    if (message.migrate_to_chat_id !== undefined || message.migrate_from_chat_id !== undefined) return this.#migrated(message);
    const parts = batch.album ?? [message];
    const content = parts.map(contentOf);
    const primary = content.findIndex((c) => c.text !== '');
    const main = parts[Math.max(0, primary)] ?? message;
    const said = content[Math.max(0, primary)]?.text ?? '';
    const media = content.flatMap((c) => (c.media ? [c.media] : []));
    const decision = decideAccess(main, said || ' ', {
      accountId: this.accountId,
      config: this.#options.config(),
      bot: this.#bot,
      isApproved: (id) => this.#options.isApproved(id),
      migratedFrom: (id) => this.#migrations.from(id),
    });
    if (decision.action === 'ignore') return this.#ignore(decision.reason, decision.why);
    const route: ReplyRoute = { channel: TELEGRAM_CHANNEL, accountId: this.accountId, peer: { kind: 'direct', id: String(message.chat.id) } };
    if (decision.action === 'pair') {
      const text = this.#options.onPairing(decision);
      if (text) await this.#sender.send(route, { text });
      return;
    }
    const unsupported = content.find((c) => c.unsupported)?.unsupported;
    if (!said.trim() && media.length === 0) {
      if (!unsupported) return this.#ignore('service message', `message ${message.message_id} in ${message.chat.id} has no content (a service message)`);
      // An allowed sender always hears back: say what claw cannot read rather than nothing.
      await this.#sender.send(route, { text: `I can't read ${unsupported} yet; send it as text or a file.`, replyTo: String(message.message_id) });
      return this.#ignore('unsupported content', `${unsupported} from ${decision.message.senderId}`);
    }
    if (edited && !batch.edit) {
      if (this.#options.config().edits === 'ignore') {
        await this.#sender.send(route, {
          text: 'I saw your edit; I only act on new messages, so send it again if you want me to.',
          replyTo: String(message.message_id),
        });
        return this.#ignore('edit', `edit of message ${message.message_id} (channels.telegram edits: ignore)`);
      }
    }
    const context = contextLines(main, this.#bot.id);
    const editNote = edited && !batch.edit ? ['[the sender edited an earlier message; this is its new text]'] : [];
    let inbound: InboundMessage = {
      ...decision.message,
      text: [...editNote, ...context, forwardedBody(main, decision.message.text)].filter((line) => line.trim() !== '').join('\n'),
      // An edit is a message of its own: the original may have been answered already.
      ...(edited && !batch.edit ? { messageId: `${decision.message.messageId}:edit:${edited.edit_date ?? 0}` } : {}),
    };
    for (const item of media) inbound = await this.#withMedia(main, item, inbound);
    this.#status.lastInboundAt = this.#options.clock.now();
    try {
      await sink(inbound);
      this.#handled += 1;
    } catch (error) {
      // Refused for good (too long, empty): committing past it is right; anything else retries the poll.
      if ((error as { code?: unknown }).code !== 'bad_request') throw error;
      this.#options.warn(`telegram ${this.accountId}: message ${inbound.messageId} refused: ${(error as Error).message}`);
      await this.#sender.send(route, { text: (error as Error).message, replyTo: String(message.message_id) });
    }
  }

  /** A group upgraded to a supergroup: the new id keeps the old one's settings, and the owner is told to move them. */
  #migrated(message: Message): void {
    const from = String(message.migrate_from_chat_id ?? message.chat.id);
    const to = String(message.migrate_to_chat_id ?? message.chat.id);
    if (this.#migrations.from(to) === from) return;
    this.#migrations.record(from, to);
    this.#options.warn(
      `telegram ${this.accountId}: group ${from} was upgraded to the supergroup ${to}; its settings (groups."${from}") apply to ${to} now — rename the key in claw.json to keep them tidy`,
    );
  }

  /** The bot was removed from a group or blocked by a user: the owner learns it from the log and `claw channels status`. */
  #memberChanged(change: NonNullable<Update['my_chat_member']>): void {
    const status = change.new_chat_member.status;
    if (status !== 'kicked' && status !== 'left') return;
    const chat = change.chat as { id: number; type: string; title?: string };
    const where = chat.type === 'private' ? `user ${chat.id} blocked the bot` : `the bot was removed from ${chat.title ?? chat.id}`;
    this.#ignored['removed from chat'] = (this.#ignored['removed from chat'] ?? 0) + 1;
    this.#options.warn(`telegram ${this.accountId}: ${where}; replies there will fail until it is added back`);
  }

  /** Saves one file of a message under the workspace's inbox/ and names it in the text. */
  async #withMedia(message: Message, media: TelegramMedia, inbound: InboundMessage): Promise<InboundMessage> {
    const workspace = this.#options.workspaceFor(inbound);
    const safe = `${message.chat.id}-${message.message_id}-${media.name}`.replace(/[^\w.-]/g, '_');
    const path = join(workspace, 'inbox', safe);
    const shown = relative(workspace, path);
    try {
      const file = await this.#api.getFile(media.fileId, grammySignal(this.#stop.signal));
      if (!file.file_path) throw new Error('Telegram gave no file path (files over 20 MB cannot be downloaded by bots)');
      const response = await fetch(`${this.#options.config().apiRoot}/file/bot${this.#options.token}/${file.file_path}`, { signal: this.#stop.signal });
      if (!response.ok) throw new Error(`download answered ${response.status}`);
      await mkdir(join(workspace, 'inbox'), { recursive: true });
      await writeFile(path, Buffer.from(await response.arrayBuffer()));
    } catch (error) {
      const why = describeTelegramError(error, this.#options.token);
      return { ...inbound, text: `${inbound.text.trim()}\n[${media.kind} not saved: ${why}]`.trim() };
    }
    const what = media.detail ? `, ${media.detail}` : '';
    const note =
      media.kind === 'voice' || media.kind === 'audio'
        ? `[${media.kind} saved: ${shown}${what} — transcription is not configured, so its words are not available]`
        : `[${media.kind} saved: ${shown}${what}]`;
    return { ...inbound, text: `${inbound.text.trim()}\n${note}`.trim(), attachments: [...(inbound.attachments ?? []), { kind: media.kind, path }] };
  }
}

/** One unit of work from a poll: an update, an album's updates as one, or a message with the edit that corrected it before it was read. */
interface Batch {
  update: Update;
  album?: Message[];
  edit?: Message;
}

const messageKey = (message: Message): string => `${message.chat.id}:${message.message_id}`;

/**
 * A poll's updates as units of work: the parts of an album (one
 * media_group_id in one chat) become one, and an edit of a message in the
 * same poll replaces that message's text instead of arriving twice.
 */
export function batched(updates: readonly Update[]): Batch[] {
  const edits = new Map<string, Message>();
  const unread = new Set(updates.flatMap((u) => (u.message ? [messageKey(u.message)] : [])));
  for (const update of updates)
    if (update.edited_message && unread.has(messageKey(update.edited_message))) edits.set(messageKey(update.edited_message), update.edited_message);
  const batches: Batch[] = [];
  const albums = new Map<string, Batch>();
  for (const update of updates) {
    if (update.edited_message && edits.has(messageKey(update.edited_message))) continue;
    const message = update.message;
    const group = message?.media_group_id ? `${message.chat.id}:${message.media_group_id}` : undefined;
    const album = group ? albums.get(group) : undefined;
    if (album && message) {
      album.album?.push(edits.get(messageKey(message)) ?? message);
      continue;
    }
    const edit = message ? edits.get(messageKey(message)) : undefined;
    const batch: Batch = { update, ...(edit ? { edit } : {}), ...(group && message ? { album: [edit ?? message] } : {}) };
    if (group) albums.set(group, batch);
    batches.push(batch);
  }
  return batches;
}
