import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../config/index.js';
import { tokenFingerprint } from '../token-lock.js';

/** Discord ids grow with time: the larger id is the later message. */
export const laterId = (a: string, b: string): boolean => a.length > b.length || (a.length === b.length && a > b);

/**
 * The newest message handed to the journal, per channel: after downtime the
 * history since it is fetched (catch-up). Written behind the journal (the
 * journal's dedupe makes a re-read harmless), at most once a second.
 */
export class ChannelCursors {
  readonly #file: string;
  readonly #ids: Record<string, string>;
  #writing: Promise<void> = Promise.resolve();
  #dirty = false;

  constructor(dir: string, token: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.#file = join(dir, `${tokenFingerprint(token)}.cursors.json`);
    this.#ids = read(this.#file);
  }

  get(channelId: string): string | undefined {
    return this.#ids[channelId];
  }

  channels(): string[] {
    return Object.keys(this.#ids);
  }

  /** Records a message; false when an equal or later one is already recorded. */
  advance(channelId: string, messageId: string): boolean {
    const known = this.#ids[channelId];
    if (known !== undefined && !laterId(messageId, known)) return false;
    this.#ids[channelId] = messageId;
    this.#dirty = true;
    return true;
  }

  /** Writes the cursors if they changed; resolves once on disk. */
  flush(): Promise<void> {
    if (!this.#dirty) return this.#writing;
    this.#dirty = false;
    const text = `${JSON.stringify(this.#ids)}\n`;
    this.#writing = this.#writing.then(() => writeFileAtomic(this.#file, text, 0o600)).catch(() => undefined);
    return this.#writing;
  }
}

function read(file: string): Record<string, string> {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (typeof parsed !== 'object' || parsed === null) return {};
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    return {};
  }
}
