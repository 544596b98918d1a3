import { sleepOn, type Clock, type TimerHandle } from '../config/index.js';
import type { ReplyRoute } from '../protocol/index.js';
import type { ChannelOutbound, ChannelSendResult } from './channel.js';

/** Telegram (and most platforms) allow about one edit per second per chat. */
export const STREAM_EDIT_INTERVAL_MS = 1000;
/** Past this much text a streamed preview stops growing; the final reply is split properly. */
const PREVIEW_LIMIT = 3500;

/**
 * A reply shown while it streams: the first delta sends a message, later
 * deltas edit it at most once per interval, and the final text replaces it
 * (split into more messages when long). Edits are previews only: the reply
 * counts as delivered only when the final send succeeded.
 */
export class StreamedReply {
  #text = '';
  #messageId: string | undefined;
  #lastEditAt = Number.NEGATIVE_INFINITY;
  #timer: TimerHandle | undefined;
  #inflight: Promise<void> = Promise.resolve();
  #busy = false;
  #frozen = false;
  #finished = false;

  constructor(
    private readonly outbound: ChannelOutbound,
    private readonly route: ReplyRoute,
    private readonly clock: Clock,
    /** The preview's message, once it exists (the host notes it, so a restart edits it rather than leaving it). */
    private readonly onPreview: (messageId: string) => void = () => undefined,
    private readonly interval = STREAM_EDIT_INTERVAL_MS,
  ) {}

  delta(text: string): void {
    if (this.#finished || this.#frozen) return;
    this.#text += text;
    if (this.#text.length > PREVIEW_LIMIT) {
      this.#frozen = true;
      return;
    }
    this.#schedule();
  }

  #schedule(): void {
    if (this.#timer || this.#busy) return;
    const wait = this.#lastEditAt + this.interval - this.clock.now();
    if (wait <= 0) {
      this.#flush();
      return;
    }
    this.#timer = this.clock.setTimer(() => {
      this.#timer = undefined;
      this.#flush();
    }, wait);
  }

  #flush(): void {
    if (this.#finished || this.#text.trim() === '') return;
    const text = this.#text;
    this.#busy = true;
    this.#lastEditAt = this.clock.now();
    this.#inflight = this.outbound
      .send(this.route, { text, preview: true, ...(this.#messageId ? { edit: this.#messageId } : {}) })
      .then((result) => {
        if (result.delivered && !this.#messageId && result.messageIds[0]) {
          this.#messageId = result.messageIds[0];
          this.onPreview(this.#messageId);
        }
      })
      .finally(() => {
        this.#busy = false;
        if (!this.#finished && this.#text !== text && !this.#frozen) this.#schedule();
      });
  }

  /** The final text: replaces the preview (or is sent fresh when nothing was shown yet). */
  async finish(text: string, key?: string): Promise<ChannelSendResult> {
    this.#finished = true;
    if (this.#timer) this.clock.clearTimer(this.#timer);
    this.#timer = undefined;
    await this.#inflight;
    const wait = this.#lastEditAt + this.interval - this.clock.now();
    if (this.#messageId && wait > 0) await sleepOn(this.clock, wait);
    return this.outbound.send(this.route, { text, ...(this.#messageId ? { edit: this.#messageId } : {}), ...(key ? { key } : {}) });
  }

  /** Gives up without a final text (the turn failed): the preview stays as it was. */
  cancel(): void {
    this.#finished = true;
    if (this.#timer) this.clock.clearTimer(this.#timer);
    this.#timer = undefined;
  }
}
