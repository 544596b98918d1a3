import { createInterface, type Interface } from 'node:readline/promises';
import { Writable } from 'node:stream';

/**
 * One readline over stdin for the whole setup (several would drop lines a
 * pipe delivered early), with a muted mode so a pasted key is never echoed.
 */
export class Prompter {
  #muted = false;
  readonly #rl: Interface;
  readonly #out: NodeJS.WriteStream;

  constructor(input: NodeJS.ReadStream = process.stdin, out: NodeJS.WriteStream = process.stdout) {
    this.#out = out;
    const self = this;
    const echo = new Writable({
      write(chunk, encoding, done) {
        if (!self.#muted) out.write(chunk, encoding);
        done();
      },
    });
    this.#rl = createInterface({ input, output: echo, terminal: Boolean(input.isTTY) });
  }

  say(text: string): void {
    this.#out.write(`${text}\n`);
  }

  async ask(question: string): Promise<string> {
    return (await this.#rl.question(question)).trim();
  }

  /** Reads a line without echoing it (keys). */
  async askHidden(question: string): Promise<string> {
    this.#out.write(question);
    this.#muted = true;
    try {
      return (await this.#rl.question('')).trim();
    } finally {
      this.#muted = false;
      this.#out.write('\n');
    }
  }

  async yes(question: string, byDefault: boolean): Promise<boolean> {
    const answer = (await this.ask(`${question} ${byDefault ? '[Y/n]' : '[y/N]'} `)).toLowerCase();
    return answer === '' ? byDefault : answer.startsWith('y');
  }

  /** A numbered list; Enter takes the first. Returns the index, or the typed text when it is not a number in range. */
  async choose(question: string, items: readonly string[]): Promise<number | string> {
    items.forEach((item, i) => {
      this.say(`  ${String(i + 1).padStart(2)}) ${item}`);
    });
    const answer = await this.ask(`${question} [1]: `);
    if (answer === '') return 0;
    const n = Number(answer);
    return Number.isInteger(n) && n >= 1 && n <= items.length ? n - 1 : answer;
  }

  close(): void {
    this.#rl.close();
  }
}
