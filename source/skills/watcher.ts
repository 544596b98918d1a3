import { existsSync, watch, type FSWatcher } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { Clock, TimerHandle } from '../config/index.js';
import { findSkillDirsSync, isDirectory } from './discovery.js';

export interface SkillsWatcher {
  /** Resolves once the roots are watched and changes will be reported. */
  ready: Promise<void>;
  /** How many times the watched folders were listed again (a measure of the watcher's own cost under churn). */
  rescans(): number;
  close(): Promise<void>;
}

export interface SkillsWatchOptions {
  dirs: readonly string[];
  debounceMs: number;
  clock: Clock;
  onChange(): void;
  onError(error: unknown): void;
}

function nearestExisting(dir: string): string {
  let current = dir;
  while (!existsSync(current) && dirname(current) !== current) current = dirname(current);
  return current;
}

/**
 * Watches the skill roots and calls onChange once per burst, `debounceMs`
 * after the last event that can change a snapshot (a SKILL.md, or a folder
 * added or removed). One inotify watch per folder discovery reads; a root
 * that does not exist yet is noticed through its nearest existing parent and
 * joins the watch when it appears. node's own fs.watch rather than a
 * watcher package: the start's scan then costs a few readdirs, not the
 * hundreds of path operations that made V8 optimise node's path code (and
 * page in its optimising compiler) before the gateway answered anything.
 */
export function watchSkillRoots(options: SkillsWatchOptions): SkillsWatcher {
  const roots = options.dirs.map((dir) => resolve(dir));
  /** Watched folders: the roots' trees, and (kind 'parent') where a missing root would appear. */
  const watched = new Map<string, { kind: 'tree' | 'parent'; watcher: FSWatcher }>();
  /**
   * Per parent watch, the names on the way to the missing roots it stands in
   * for: any other file changing there (a busy workspace root) is ignored at
   * once, without a rescan.
   */
  const awaited = new Map<string, Set<string>>();
  let timer: TimerHandle | undefined;
  let closed = false;
  let reported = false;
  let rescans = 0;

  const schedule = (): void => {
    if (closed) return;
    if (timer) options.clock.clearTimer(timer);
    timer = options.clock.setTimer(() => {
      timer = undefined;
      if (!closed) options.onChange();
    }, options.debounceMs);
  };
  // A full inotify table or a folder removed mid-scan: said once, and the rest stays watched.
  const fail = (error: unknown): void => {
    if (reported || closed) return;
    reported = true;
    options.onError(error);
  };

  const onTreeEvent = (dir: string, name: string | null): void => {
    const path = name === null ? undefined : join(dir, name);
    if (path !== undefined && name !== 'SKILL.md' && !watched.has(path) && !isDirectory(path)) return;
    sync(false);
    schedule();
  };

  const start = (dir: string, kind: 'tree' | 'parent'): void => {
    try {
      const watcher = watch(dir, { persistent: false }, (_event, name) => {
        if (closed) return;
        if (kind === 'parent') {
          if (typeof name === 'string' && !awaited.get(dir)?.has(name)) return;
          sync(false);
        } else onTreeEvent(dir, typeof name === 'string' ? name : null);
      });
      watcher.on('error', (error) => {
        // A watched folder that was removed ends its watch; the next sync forgets it.
        if (existsSync(dir)) fail(error);
      });
      watched.set(dir, { kind, watcher });
    } catch (error) {
      if (existsSync(dir)) fail(error);
    }
  };

  /** Brings the watches in line with the disk; a root that appeared since the last sync is a change. */
  const sync = (initial: boolean): void => {
    if (closed) return;
    rescans += 1;
    const trees = new Set<string>();
    const parents = new Set<string>();
    let appeared = false;
    awaited.clear();
    for (const root of roots) {
      if (isDirectory(root)) {
        if (watched.get(root)?.kind !== 'tree') appeared = true;
        findSkillDirsSync(root, trees);
      } else {
        const parent = nearestExisting(root);
        parents.add(parent);
        const names = awaited.get(parent) ?? new Set<string>();
        names.add(relative(parent, root).split(sep)[0]!);
        awaited.set(parent, names);
      }
    }
    for (const [dir, entry] of watched) {
      const wanted = entry.kind === 'tree' ? trees.has(dir) : parents.has(dir) && !trees.has(dir);
      if (wanted) continue;
      entry.watcher.close();
      watched.delete(dir);
    }
    for (const dir of trees) if (!watched.has(dir)) start(dir, 'tree');
    for (const dir of parents) if (!watched.has(dir)) start(dir, 'parent');
    if (appeared && !initial) schedule();
  };

  sync(true);
  return {
    ready: Promise.resolve(),
    rescans: () => rescans,
    async close() {
      closed = true;
      if (timer) options.clock.clearTimer(timer);
      for (const { watcher } of watched.values()) watcher.close();
      watched.clear();
    },
  };
}
