export const NO_REPLY = 'NO_REPLY';

/**
 * Forwards text deltas to clients, but holds back text while it could still
 * turn out to be exactly NO_REPLY, so a suppressed reply never flickers on a
 * screen. The held text is released as soon as it diverges.
 */
export class ReplyStream {
  #text = '';
  #sent = 0;

  constructor(private readonly emit: (delta: string) => void) {}

  get text(): string {
    return this.#text;
  }

  push(delta: string): void {
    this.#text += delta;
    if (this.#couldBeNoReply()) return;
    this.#flush();
  }

  /** End of one model reply: true when the whole reply was NO_REPLY (nothing was sent). */
  finish(): boolean {
    if (this.#text.trim() === NO_REPLY) return true;
    this.#flush();
    return false;
  }

  #couldBeNoReply(): boolean {
    const trimmed = this.#text.trimStart();
    return NO_REPLY.startsWith(trimmed.trimEnd()) || trimmed.trimEnd() === NO_REPLY;
  }

  #flush(): void {
    if (this.#sent >= this.#text.length) return;
    this.emit(this.#text.slice(this.#sent));
    this.#sent = this.#text.length;
  }
}
