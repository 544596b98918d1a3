import { readFileSync } from 'node:fs';
import { writeFileAtomicSync } from '../../config/index.js';

/**
 * Groups upgraded to supergroups, new id → old id, kept on disk: the new id
 * keeps the settings written for the old one until the owner renames them.
 */
export class MigrationStore {
  readonly #file: string;
  #map: Record<string, string> | undefined;

  constructor(file: string) {
    this.#file = file;
  }

  #read(): Record<string, string> {
    if (!this.#map) {
      try {
        this.#map = JSON.parse(readFileSync(this.#file, 'utf8')) as Record<string, string>;
      } catch {
        this.#map = {};
      }
    }
    return this.#map;
  }

  from(chatId: string): string | undefined {
    return this.#read()[chatId];
  }

  record(from: string, to: string): void {
    const map = { ...this.#read(), [to]: from };
    writeFileAtomicSync(this.#file, `${JSON.stringify(map, null, 2)}\n`);
    this.#map = map;
  }
}
