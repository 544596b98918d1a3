import { existsSync, type Stats } from 'node:fs';
import { basename, dirname, relative, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { Clock, TimerHandle } from '../config/index.js';
import { MAX_SKILL_DEPTH } from './discovery.js';

export interface SkillsWatcher {
  /** Resolves once the roots are scanned and changes will be reported. */
  ready: Promise<void>;
  close(): Promise<void>;
}

export interface SkillsWatchOptions {
  dirs: readonly string[];
  debounceMs: number;
  clock: Clock;
  onChange(): void;
  onError(error: unknown): void;
}

function isUnder(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep));
}

function nearestExisting(dir: string): string {
  let current = dir;
  while (!existsSync(current) && dirname(current) !== current) current = dirname(current);
  return current;
}

/**
 * Watches the skill roots (folders and SKILL.md files only) and calls
 * onChange once per burst, `debounceMs` after the last event. A root that
 * does not exist yet is noticed through its nearest existing parent, watched
 * one level deep, and joins the watch when it appears.
 */
export function watchSkillRoots(options: SkillsWatchOptions): SkillsWatcher {
  const ignored = (path: string, stats?: Stats): boolean => {
    const name = basename(path);
    if (name === 'node_modules' || (name.startsWith('.') && name !== '.agents' && !options.dirs.some((dir) => isUnder(dir, path)))) return true;
    return stats?.isFile() === true && name !== 'SKILL.md';
  };
  const roots: FSWatcher = watch([], { ignoreInitial: true, ignored, depth: MAX_SKILL_DEPTH + 1 });
  const parents: FSWatcher = watch([], {
    ignoreInitial: true,
    depth: 0,
    ignored: (path) => !options.dirs.some((dir) => isUnder(dir, path) || isUnder(path, dir)),
  });
  const watchedRoots = new Set<string>();
  const watchedParents = new Set<string>();
  let timer: TimerHandle | undefined;
  let closed = false;

  const schedule = (): void => {
    if (closed) return;
    if (timer) options.clock.clearTimer(timer);
    timer = options.clock.setTimer(() => {
      timer = undefined;
      if (!closed) options.onChange();
    }, options.debounceMs);
  };
  // A root that appears after the start may already hold skills, which an ignoreInitial watch does not report.
  const arm = (initial: boolean): void => {
    for (const dir of options.dirs) {
      if (existsSync(dir)) {
        if (!watchedRoots.has(dir)) {
          watchedRoots.add(dir);
          roots.add(dir);
          if (!initial) schedule();
        }
        continue;
      }
      const parent = nearestExisting(dir);
      if (!watchedParents.has(parent)) {
        watchedParents.add(parent);
        parents.add(parent);
      }
    }
  };
  arm(true);
  for (const event of ['add', 'change', 'unlink', 'addDir', 'unlinkDir'] as const) roots.on(event, schedule);
  parents.on('addDir', () => arm(false));
  roots.on('error', options.onError);
  parents.on('error', options.onError);
  const ready = Promise.all([
    new Promise<void>((resolve) => roots.once('ready', () => resolve())),
    new Promise<void>((resolve) => parents.once('ready', () => resolve())),
  ]).then(() => undefined);
  return {
    ready,
    async close() {
      closed = true;
      if (timer) options.clock.clearTimer(timer);
      await Promise.all([roots.close(), parents.close()]);
    },
  };
}
