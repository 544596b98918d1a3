import { closeSync, existsSync, fsync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * An append-only JSONL file whose every append is on disk (fsync) before the
 * call returns: what a completion inbox needs, since a kill -9 right after
 * must not lose the line. Appends are synchronous on purpose — a caller that
 * writes first and acts second can do both in one tick, before any other
 * write of the daemon (the journal's outcome, say) can reach the disk.
 */
export class DurableLog<T> {
  #fd: number | undefined;
  readonly #syncing = new Set<Promise<void>>();

  constructor(readonly path: string) {}

  /** Every complete line that parses; a torn last line (a crash mid-append) is skipped. */
  readSync(parse: (value: unknown) => T | undefined, warn: (message: string) => void): T[] {
    if (!existsSync(this.path)) return [];
    const lines = readFileSync(this.path, 'utf8').split('\n');
    const torn = lines.pop();
    if (torn) warn(`${this.path}: a torn last line (${torn.length} bytes) was skipped`);
    const records: T[] = [];
    for (const line of lines) {
      if (!line) continue;
      try {
        const record = parse(JSON.parse(line));
        if (record !== undefined) records.push(record);
        else warn(`${this.path}: a line of an unknown shape was skipped`);
      } catch {
        warn(`${this.path}: a garbled line was skipped`);
      }
    }
    if (torn) this.#write('\n');
    return records;
  }

  appendSync(record: T): void {
    this.#write(`${JSON.stringify(record)}\n`);
  }

  /**
   * The line is written now and resolves once it is on disk, the fsync running
   * on the thread pool: for a caller with another durable write to make at the
   * same time (a spawn and its journal record), which then wait for both at once.
   */
  append(record: T): Promise<void> {
    const fd = this.#open();
    writeSync(fd, `${JSON.stringify(record)}\n`);
    const synced = new Promise<void>((resolve, reject) => fsync(fd, (error) => (error ? reject(error) : resolve())));
    this.#syncing.add(synced);
    const forget = (): void => void this.#syncing.delete(synced);
    synced.then(forget, forget);
    return synced;
  }

  /** Waits for the fsyncs `append` started (before `close`). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#syncing]);
  }

  close(): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }

  #open(): number {
    if (this.#fd === undefined) {
      mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
      this.#fd = openSync(this.path, 'a', 0o600);
    }
    return this.#fd;
  }

  #write(text: string): void {
    const fd = this.#open();
    writeSync(fd, text);
    fsyncSync(fd);
  }
}
