import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../config/index.js';
import { tokenFingerprint } from '../token-lock.js';

/**
 * The next getUpdates offset of one bot, written (fsynced, atomically) only
 * after every update below it is in the inbound journal.
 */
export class OffsetStore {
  readonly #file: string;

  constructor(dir: string, token: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.#file = join(dir, `${tokenFingerprint(token)}.offset.json`);
  }

  read(): number {
    try {
      const parsed = JSON.parse(readFileSync(this.#file, 'utf8')) as { offset?: unknown };
      return typeof parsed.offset === 'number' ? parsed.offset : 0;
    } catch {
      return 0;
    }
  }

  commit(offset: number): Promise<void> {
    return writeFileAtomic(this.#file, `${JSON.stringify({ offset })}\n`, 0o600);
  }
}
