import { GrammyError, HttpError, type Api } from 'grammy';
import { sleepOn, type Clock } from '../../config/index.js';
import type { ReplyRoute } from '../../protocol/index.js';
import type { ChannelReply, ChannelSendResult } from '../channel.js';
import { renderTelegram, renderTelegramPreview } from '../../markdown/index.js';
import { redactToken } from '../credentials.js';

export interface SenderOptions {
  api: Api;
  token: string;
  clock: Clock;
  /** Attempts per Telegram call before the reply counts as not delivered. */
  attempts?: number;
  /** First backoff after a network or server error; doubles each time. */
  backoffMs?: number;
  /** A 429 asking to wait longer than this fails the send instead of holding the chat for minutes. */
  maxRetryAfterSeconds?: number;
}

/** Why a call failed, in words a user can act on, without the token. */
export function describeTelegramError(error: unknown, token: string): string {
  if (error instanceof GrammyError) return redactToken(`Telegram answered ${error.error_code} to ${error.method}: ${error.description}`, token);
  if (error instanceof HttpError) return redactToken(`cannot reach Telegram: ${String((error.error as Error)?.message ?? error.message)}`, token);
  return redactToken(error instanceof Error ? error.message : String(error), token);
}

const NOT_MODIFIED = /message is not modified/i;
const CHAT_GONE = /chat not found|bot was kicked|user is deactivated|not enough rights to send/i;
const BAD_ENTITIES = /can't parse entities|unsupported start tag|can't find end tag/i;

/**
 * The outbound half of a Telegram account: Markdown as Telegram HTML
 * (markdown/telegram-html.ts: each part valid and within 4096 by
 * construction; a streamed preview is always one message), each call retried (429 waits its retry_after; network and 5xx
 * errors back off); a result says delivered only when Telegram said so.
 */
export class TelegramSender {
  readonly #options: SenderOptions;
  lastSentAt: number | undefined;

  constructor(options: SenderOptions) {
    this.#options = options;
  }

  async #call<T>(run: () => Promise<T>): Promise<T> {
    const attempts = this.#options.attempts ?? 4;
    let backoff = this.#options.backoffMs ?? 1000;
    for (let attempt = 1; ; attempt++) {
      try {
        return await run();
      } catch (error) {
        if (attempt >= attempts) throw error;
        if (error instanceof GrammyError) {
          if (error.error_code === 429) {
            const wait = error.parameters.retry_after ?? 1;
            if (wait > (this.#options.maxRetryAfterSeconds ?? 120)) throw error;
            await sleepOn(this.#options.clock, wait * 1000);
            continue;
          }
          if (error.error_code < 500) throw error;
        }
        await sleepOn(this.#options.clock, backoff);
        backoff *= 2;
      }
    }
  }

  async send(route: ReplyRoute, reply: ChannelReply): Promise<ChannelSendResult> {
    const result = await this.#sendParts(route, reply);
    // A group upgraded to a supergroup answers with its new id: the reply goes there.
    const moved = result.migratedTo;
    if (moved === undefined || !route.peer) return result.sent;
    return (await this.#sendParts({ ...route, peer: { ...route.peer, id: String(moved) } }, reply)).sent;
  }

  async #sendParts(route: ReplyRoute, reply: ChannelReply): Promise<{ sent: ChannelSendResult; migratedTo?: number }> {
    const chatId = route.peer?.id;
    if (!chatId) return { sent: { delivered: false, messageIds: [], error: 'the reply route names no Telegram chat' } };
    const preview = reply.preview ? renderTelegramPreview(reply.text) : undefined;
    const chunks = reply.preview ? (preview === undefined ? [] : [preview]) : renderTelegram(reply.text);
    if (chunks.length === 0) return { sent: { delivered: false, messageIds: [], error: 'the reply is empty' } };
    const messageIds: string[] = [];
    const api = this.#options.api;
    const thread = route.threadId !== undefined ? { message_thread_id: Number(route.threadId) } : {};
    const markup = reply.buttons
      ? { reply_markup: { inline_keyboard: reply.buttons.map((row) => row.map((b) => ({ text: b.label, callback_data: b.data }))) } }
      : {};
    try {
      for (let index = 0; index < chunks.length; index++) {
        const html = chunks[index]!;
        const last = index === chunks.length - 1;
        const extra = last ? markup : {};
        if (index === 0 && reply.edit) {
          await this.#edit(chatId, Number(reply.edit), html, extra);
          messageIds.push(reply.edit);
          continue;
        }
        const sent = await this.#withPlainFallback(html, (text, parse) =>
          this.#call(() =>
            api.sendMessage(chatId, text, {
              ...(parse ? { parse_mode: 'HTML' as const } : {}),
              ...thread,
              ...extra,
              ...(index === 0 && reply.replyTo ? { reply_parameters: { message_id: Number(reply.replyTo), allow_sending_without_reply: true } } : {}),
              ...(reply.silent ? { disable_notification: true } : {}),
            }),
          ),
        );
        messageIds.push(String(sent.message_id));
      }
      this.lastSentAt = this.#options.clock.now();
      return { sent: { delivered: true, messageIds } };
    } catch (error) {
      const migratedTo = error instanceof GrammyError ? error.parameters.migrate_to_chat_id : undefined;
      if (migratedTo !== undefined && messageIds.length === 0) return { sent: { delivered: false, messageIds }, migratedTo };
      const sentPart = messageIds.length > 0 ? ` (${messageIds.length} of ${chunks.length} parts were sent)` : '';
      const gone = error instanceof GrammyError && (error.error_code === 403 || CHAT_GONE.test(error.description));
      const sent: ChannelSendResult = {
        delivered: false,
        messageIds,
        error: `${describeTelegramError(error, this.#options.token)}${sentPart}`,
        ...(gone ? { chatGone: true } : {}),
      };
      return { sent };
    }
  }

  async #edit(chatId: string, messageId: number, html: string, extra: object): Promise<void> {
    try {
      await this.#withPlainFallback(html, (text, parse) =>
        this.#call(() => this.#options.api.editMessageText(chatId, messageId, text, { ...(parse ? { parse_mode: 'HTML' as const } : {}), ...extra })),
      );
    } catch (error) {
      // The same text again (a final edit equal to the last streamed one) is not a failure.
      if (error instanceof GrammyError && NOT_MODIFIED.test(error.description)) return;
      throw error;
    }
  }

  /** Telegram refusing our HTML must never lose the reply: it goes again as plain text. */
  async #withPlainFallback<T>(html: string, run: (text: string, parse: boolean) => Promise<T>): Promise<T> {
    try {
      return await run(html, true);
    } catch (error) {
      if (!(error instanceof GrammyError) || error.error_code !== 400 || !BAD_ENTITIES.test(error.description)) throw error;
      return run(
        html
          .replace(/<[^>]+>/g, '')
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&quot;/g, '"')
          .replace(/&amp;/g, '&'),
        false,
      );
    }
  }

  async react(route: ReplyRoute, messageId: string, emoji: string): Promise<ChannelSendResult> {
    const chatId = route.peer?.id;
    if (!chatId) return { delivered: false, messageIds: [], error: 'the route names no Telegram chat' };
    try {
      await this.#call(() => this.#options.api.setMessageReaction(chatId, Number(messageId), [{ type: 'emoji', emoji } as never]));
      return { delivered: true, messageIds: [messageId] };
    } catch (error) {
      return { delivered: false, messageIds: [], error: describeTelegramError(error, this.#options.token) };
    }
  }

  /** "typing…" while a turn runs; best effort, a failure only costs the indicator. */
  typing(route: ReplyRoute): void {
    const chatId = route.peer?.id;
    if (!chatId) return;
    const thread = route.threadId !== undefined ? { message_thread_id: Number(route.threadId) } : {};
    this.#options.api.sendChatAction(chatId, 'typing', thread).catch(() => undefined);
  }

  /** Telegram's toast for a button press. */
  async answerCallback(id: string, text: string): Promise<void> {
    await this.#call(() => this.#options.api.answerCallbackQuery(id, { text })).catch(() => undefined);
  }
}
