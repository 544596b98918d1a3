import { statSync } from 'node:fs';
import { join } from 'node:path';
import { loadBootstrapSync, type BootstrapLoad, type BootstrapOptions } from './bootstrap.js';
import { dailyNotesSignature } from './daily-notes.js';
import { bootstrapFileNames } from './workspace.js';

function signature(dir: string, options: BootstrapOptions): string {
  const files = bootstrapFileNames
    .map((name) => {
      try {
        // Absent files are the common case (BOOTSTRAP.md after the first run): no exception built for each.
        const stat = statSync(join(dir, name), { throwIfNoEntry: false });
        return stat ? `${stat.mtimeMs}:${stat.size}` : '-';
      } catch {
        return '-';
      }
    })
    .join('|');
  return options.kind === 'main' && options.now !== undefined ? `${files}|${dailyNotesSignature(dir, options.now)}` : files;
}

/**
 * Bootstrap files are read on every turn but change rarely: a stat per file
 * decides whether the last load still holds, so an edit shows up on the next
 * turn without re-reading 150,000 characters each time.
 */
export class BootstrapCache {
  readonly #entries = new Map<string, { signature: string; load: BootstrapLoad }>();

  load(dir: string, options: BootstrapOptions): BootstrapLoad {
    const key = `${dir}\u0000${options.kind}\u0000${options.firstRun}`;
    const current = signature(dir, options);
    const cached = this.#entries.get(key);
    if (cached?.signature === current) return cached.load;
    const load = loadBootstrapSync(dir, options);
    this.#entries.set(key, { signature: current, load });
    return load;
  }
}
