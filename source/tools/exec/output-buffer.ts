/** Keeps the head and tail of a stream of text within a character cap. */
export class OutputBuffer {
  #head = '';
  #tail = '';
  #total = 0;
  readonly #half: number;

  constructor(readonly maxChars: number) {
    this.#half = Math.floor(maxChars / 2);
  }

  append(text: string): void {
    this.#total += text.length;
    if (this.#head.length < this.#half) {
      const room = this.#half - this.#head.length;
      this.#head += text.slice(0, room);
      text = text.slice(room);
    }
    if (text.length === 0) return;
    this.#tail = (this.#tail + text).slice(-this.#half);
  }

  get totalChars(): number {
    return this.#total;
  }

  text(): string {
    const dropped = this.#total - this.#head.length - this.#tail.length;
    if (dropped <= 0) return this.#head + this.#tail;
    return `${this.#head}\n[… ${dropped} characters omitted …]\n${this.#tail}`;
  }
}
