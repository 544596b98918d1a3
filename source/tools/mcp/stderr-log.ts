import type { Clock } from '../../config/index.js';

export interface StderrLine {
  at: number;
  text: string;
  /** Written by claw (a server start), not by the server. */
  marker?: boolean;
}

const MAX_LINES = 200;
const MAX_LINE_CHARS = 1000;

/**
 * The last lines a server wrote to stderr, bounded in lines and line length,
 * so a server that fails at start-up can be explained and a chatty one costs
 * a fixed amount of memory.
 */
export class StderrLog {
  readonly #lines: StderrLine[] = [];
  #partial = '';

  constructor(private readonly clock: Pick<Clock, 'now'>) {}

  write(chunk: string): void {
    const parts = (this.#partial + chunk).split(/\r?\n/);
    this.#partial = parts.pop()!.slice(-MAX_LINE_CHARS);
    for (const part of parts) this.#push(part);
  }

  /** A process ended: a last line without a newline still counts. */
  flush(): void {
    if (this.#partial !== '') this.#push(this.#partial);
    this.#partial = '';
  }

  /** Marks where a new process starts, so `claw mcp logs` shows which run said what. */
  mark(text: string): void {
    this.flush();
    this.#lines.push({ at: this.clock.now(), text, marker: true });
    this.#trim();
  }

  lines(): StderrLine[] {
    return [...this.#lines];
  }

  /** The last line the server itself wrote (not a marker), if any. */
  last(): string | undefined {
    const line = this.#lines.at(-1);
    return line && !line.marker ? line.text : undefined;
  }

  #push(text: string): void {
    const trimmed = text.trimEnd();
    if (trimmed === '') return;
    this.#lines.push({ at: this.clock.now(), text: trimmed.slice(0, MAX_LINE_CHARS) });
    this.#trim();
  }

  #trim(): void {
    if (this.#lines.length > MAX_LINES) this.#lines.splice(0, this.#lines.length - MAX_LINES);
  }
}
