import { mkdirSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { FSWatcher } from 'chokidar';
import type { MemoryIndex } from './memory-index.js';
import type { SyncStats } from './types.js';

export interface MemoryWatcher {
  /** Resolves once chokidar has scanned the roots and will report changes. */
  ready: Promise<void>;
  close(): Promise<void>;
}

export interface WatchOptions {
  debounceMs: number;
  onSynced?: (stats: SyncStats) => void;
  onError?: (error: unknown) => void;
}

function under(path: string, root: string): string | undefined {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && !rel.includes(`..${sep}`)) ? rel : undefined;
}

/**
 * Watches MEMORY.md, memory/ and the extra paths of one agent and re-indexes
 * after `debounceMs` without further changes. Adds, edits, deletes and renames
 * (an unlink plus an add) all end in the same incremental sync.
 */
export function watchMemory(index: MemoryIndex, options: WatchOptions): MemoryWatcher {
  const { workspace, extraPaths } = index.roots;
  mkdirSync(join(workspace, 'memory'), { recursive: true });
  const ignored = (path: string, stats?: Stats): boolean => {
    const isMarkdownOrDir = stats === undefined || stats.isDirectory() || path.toLowerCase().endsWith('.md');
    const inWorkspace = under(path, workspace);
    if (inWorkspace !== undefined) {
      if (inWorkspace === '' || inWorkspace === 'MEMORY.md') return false;
      return !(inWorkspace === 'memory' || (inWorkspace.startsWith(`memory${sep}`) && isMarkdownOrDir));
    }
    if (extraPaths.some((extra) => under(path, extra) !== undefined)) return !isMarkdownOrDir;
    return true;
  };
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const schedule = () => {
    index.markDirty();
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      if (closed) return;
      index.sync().then(
        (stats) => options.onSynced?.(stats),
        (error: unknown) => options.onError?.(error),
      );
    }, options.debounceMs);
  };
  // chokidar loads with the first watcher, after the daemon is ready.
  const started: Promise<FSWatcher> = import('chokidar').then(({ watch }) => {
    const watcher = watch([workspace, ...extraPaths], { ignoreInitial: true, ignored, depth: 20 });
    for (const event of ['add', 'change', 'unlink', 'unlinkDir'] as const) watcher.on(event, schedule);
    watcher.on('error', (error) => options.onError?.(error));
    return watcher;
  });
  const ready = started.then((watcher) => new Promise<void>((resolve) => watcher.once('ready', () => resolve())));
  // A file written while chokidar scans counts as initial and raises no event: one sync once it is ready catches it.
  ready.then(
    () => {
      if (!closed) schedule();
    },
    () => undefined,
  );
  return {
    ready,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await (await started).close();
    },
  };
}
