import { createHash } from 'node:crypto';
import type { Clock } from '../../config/index.js';
import type { ReplyRoute } from '../../protocol/index.js';
import type { ChannelReply, ChannelSendResult } from '../channel.js';
import { DiscordApiError, type DiscordRest } from './rest.js';
import { cutPoint } from '../../markdown/index.js';
import { DISCORD_TEXT_LIMIT, quietMentions, splitDiscord } from './split.js';

/** Codes that mean the chat takes nothing from us any more (no note about a failure can reach it either). */
const CHAT_GONE = new Set([10003, 50001, 50007, 50013]);
/** Nobody is pinged by what the model writes: `@everyone`, roles and users stay text. */
const NO_PINGS = { parse: [] as string[], replied_user: false };

interface Sent {
  id: string;
}

/** A Discord nonce (at most 25 characters) naming part `index` of the reply `key`: with enforce_nonce Discord creates it once. */
export function nonceOf(key: string, index: number): string {
  return createHash('sha256').update(`${key}:${index}`).digest('base64url').slice(0, 25);
}

function components(reply: ChannelReply): unknown[] {
  return (reply.buttons ?? []).map((row) => ({
    type: 1,
    components: row.map((button) => ({ type: 2, style: button.label === 'Deny' ? 4 : 2, label: button.label.slice(0, 80), custom_id: button.data })),
  }));
}

export function describeDiscordError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The outbound half of a Discord account: Markdown kept (Discord renders
 * it), split at 2,000 characters on paragraph and fence boundaries, nobody
 * pinged; a reply with a key is sent with Discord's `enforce_nonce`, so a
 * retry or a send again after a restart creates no second message; a
 * streamed preview is one message edited in place; buttons are components.
 */
export class DiscordSender {
  readonly #rest: DiscordRest;
  readonly #clock: Clock;
  /** User id → their DM channel. */
  readonly #dms = new Map<string, string>();
  lastSentAt: number | undefined;

  constructor(rest: DiscordRest, clock: Clock) {
    this.#rest = rest;
    this.#clock = clock;
  }

  /** A DM channel seen on an inbound message: no lookup needed to answer there. */
  rememberDm(userId: string, channelId: string): void {
    this.#dms.set(userId, channelId);
  }

  async channelFor(route: ReplyRoute): Promise<string> {
    const peer = route.peer;
    if (!peer) throw new Error('the reply route names no Discord chat');
    if (peer.kind === 'group') return route.threadId ?? peer.id;
    const known = this.#dms.get(peer.id);
    if (known) return known;
    const dm = await this.#rest.request<{ id: string }>('POST', '/users/@me/channels', { recipient_id: peer.id });
    this.#dms.set(peer.id, dm.id);
    return dm.id;
  }

  async send(route: ReplyRoute, reply: ChannelReply): Promise<ChannelSendResult> {
    const text = quietMentions(reply.text);
    const parts = reply.preview ? [preview(text)] : splitDiscord(text);
    if (parts.length === 0 || parts[0]!.trim() === '') return { delivered: false, messageIds: [], error: 'the reply is empty' };
    const messageIds: string[] = [];
    try {
      const channelId = await this.channelFor(route);
      for (let index = 0; index < parts.length; index++) {
        const content = parts[index]!;
        const last = index === parts.length - 1;
        const rows = last ? components(reply) : [];
        if (index === 0 && reply.edit) {
          await this.#rest.request('PATCH', `/channels/${channelId}/messages/${reply.edit}`, { content, components: rows, allowed_mentions: NO_PINGS });
          messageIds.push(reply.edit);
          continue;
        }
        const sent = await this.#rest.request<Sent>('POST', `/channels/${channelId}/messages`, {
          content,
          allowed_mentions: NO_PINGS,
          ...(rows.length > 0 ? { components: rows } : {}),
          ...(reply.key ? { nonce: nonceOf(reply.key, index), enforce_nonce: true } : {}),
          ...(index === 0 && reply.replyTo ? { message_reference: { message_id: reply.replyTo, fail_if_not_exists: false } } : {}),
          ...(reply.silent ? { flags: 4096 } : {}),
        });
        messageIds.push(sent.id);
      }
      this.lastSentAt = this.#clock.now();
      return { delivered: true, messageIds };
    } catch (error) {
      const sentPart = messageIds.length > 0 ? ` (${messageIds.length} of ${parts.length} parts were sent)` : '';
      const gone = error instanceof DiscordApiError && (error.status === 403 || CHAT_GONE.has(error.code));
      return { delivered: false, messageIds, error: `${describeDiscordError(error)}${sentPart}`, ...(gone ? { chatGone: true } : {}) };
    }
  }

  async react(route: ReplyRoute, messageId: string, emoji: string): Promise<ChannelSendResult> {
    try {
      const channelId = await this.channelFor(route);
      await this.#rest.request('PUT', `/channels/${channelId}/messages/${messageId}/reactions/${encodeURIComponent(emoji)}/@me`);
      return { delivered: true, messageIds: [messageId] };
    } catch (error) {
      return { delivered: false, messageIds: [], error: describeDiscordError(error) };
    }
  }

  /** "typing…" while a turn runs; best effort, a failure only costs the indicator. */
  typing(route: ReplyRoute): void {
    void this.channelFor(route)
      .then((channelId) => this.#rest.request('POST', `/channels/${channelId}/typing`))
      .catch(() => undefined);
  }

  /** The answer to a button press, shown only to the presser (an ephemeral message), within Discord's 3 s. */
  async answerInteraction(id: string, token: string, text: string): Promise<void> {
    await this.#rest
      .request('POST', `/interactions/${id}/${token}/callback`, { type: 4, data: { content: quietMentions(text), flags: 64, allowed_mentions: NO_PINGS } })
      .catch(() => undefined);
  }
}

/** A streaming reply is one message: cut with "…" when it has outgrown it (the rest comes with the final reply). */
function preview(text: string): string {
  if (text.length <= DISCORD_TEXT_LIMIT) return text;
  return `${text.slice(0, cutPoint(text, DISCORD_TEXT_LIMIT - 2))}…`;
}
