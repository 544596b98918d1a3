import type { Logger } from '../config/index.js';
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { loadConfig, type ClawConfig, type Clock, type TimerHandle } from '../config/index.js';
import type { ConfigStatus } from '../protocol/index.js';

/**
 * Keys whose new value only takes effect after `claw gateway restart`: the
 * listening socket, and limits the tools and the event buffer read once at
 * start. A reload reports them instead of pretending they changed.
 */
const RESTART_KEYS = [
  'gateway.port',
  'gateway.bind',
  'gateway.resumeBufferEvents',
  'gateway.tickIntervalMs',
  'tools.exec',
  'tools.fs',
  'tools.fsRoots',
  'tools.web',
];

const RELOAD_DEBOUNCE_MS = 150;

type Plain = Record<string, unknown>;

function isPlain(value: unknown): value is Plain {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Dotted keys whose values differ between two configs, at the depth of RESTART_KEYS and top-level sections. */
/** JSON with object keys sorted: the live config keeps its objects (and their key order) while a fresh load has the schema's order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    isPlain(inner)
      ? Object.fromEntries(
          Object.keys(inner)
            .sort()
            .map((key) => [key, inner[key]]),
        )
      : inner,
  );
}

function changedKeys(before: Plain, after: Plain, prefix = ''): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  const changed: string[] = [];
  for (const key of keys) {
    const path = prefix ? `${prefix}.${key}` : key;
    const a = before[key];
    const b = after[key];
    if (canonical(a) === canonical(b)) continue;
    if (isPlain(a) && isPlain(b) && RESTART_KEYS.some((k) => k.startsWith(`${path}.`))) changed.push(...changedKeys(a, b, path));
    else changed.push(path);
  }
  return changed;
}

/** Replaces `target`'s contents with `source`'s, keeping every nested object's identity. */
function assignInPlace(target: Plain, source: Plain): void {
  for (const key of Object.keys(target)) if (!(key in source)) delete target[key];
  for (const [key, value] of Object.entries(source)) {
    const current = target[key];
    if (isPlain(current) && isPlain(value)) assignInPlace(current, value);
    else target[key] = value;
  }
}

function valueAt(root: Plain, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (isPlain(node) ? node[key] : undefined), root);
}

function setAt(root: Plain, path: string, value: unknown): void {
  const keys = path.split('.');
  const last = keys.pop()!;
  const parent = keys.reduce<unknown>((node, key) => (isPlain(node) ? node[key] : undefined), root);
  if (isPlain(parent)) parent[last] = structuredClone(value);
}

export type ConfigChangeListener = (changed: readonly string[]) => void | Promise<void>;

/**
 * The daemon's one live config. Services keep a reference to `current` and
 * read it when they act, so a reload replaces its contents in place (nested
 * objects keep their identity) and every reader sees the new values; services
 * with derived state (providers, MCP, memory) subscribe to `onChange`. An
 * invalid file keeps the last good config running and says which key is wrong.
 */
export class ConfigStore {
  #status: ConfigStatus;
  #watcher: FSWatcher | undefined;
  #timer: TimerHandle | undefined;
  /** Whether the last reload applied a change: a watcher reload that did not is not news. */
  #appliedLast = false;
  readonly #listeners = new Set<ConfigChangeListener>();
  /** What is running for the restart-only keys: they keep these values until a restart. */
  readonly #running: Plain;

  constructor(
    readonly current: ClawConfig,
    private readonly file: string,
    private readonly log: Logger,
    private readonly clock: Clock,
  ) {
    this.#status = { state: 'ok', loadedAt: clock.now(), restartNeeded: [] };
    this.#running = structuredClone(current) as unknown as Plain;
  }

  status(): ConfigStatus {
    return this.#status;
  }

  onChange(listener: ConfigChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Watches claw.json (its folder, since editors and atomic writes replace the file). */
  watch(onStatus: (status: ConfigStatus) => void): void {
    const name = basename(this.file);
    try {
      this.#watcher = watch(dirname(this.file), (_event, changed) => {
        if (changed !== null && changed !== name) return;
        if (this.#timer) this.clock.clearTimer(this.#timer);
        this.#timer = this.clock.setTimer(() => {
          this.#timer = undefined;
          const before = this.#summary();
          // A write the gateway already applied (setup saves, then reloads at once) changes nothing here: clients hear of it once.
          void this.reload().then((status) => {
            if (this.#appliedLast || this.#summary() !== before) onStatus(status);
          });
        }, RELOAD_DEBOUNCE_MS);
      });
      this.#watcher.unref();
    } catch (error) {
      this.log.warn(`not watching ${this.file} for changes (${String(error)}); changes apply after \`claw gateway restart\``);
    }
  }

  /** Re-reads the file and applies what changed; never throws. */
  async reload(): Promise<ConfigStatus> {
    let next: ClawConfig;
    try {
      next = loadConfig(this.file);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.#status = { ...this.#status, state: 'invalid', error: message };
      this.log.warn(`claw.json changed but is not valid; still running the last good config.\n${message}`);
      return this.#status;
    }
    const nextPlain = next as unknown as Plain;
    const currentPlain = this.current as unknown as Plain;
    const changed = changedKeys(currentPlain, nextPlain);
    const restartNeeded = RESTART_KEYS.filter((key) => canonical(valueAt(this.#running, key)) !== canonical(valueAt(nextPlain, key)));
    for (const key of restartNeeded) setAt(nextPlain, key, valueAt(this.#running, key));
    const applied = changed.filter((key) => !restartNeeded.includes(key));
    this.#appliedLast = applied.length > 0;
    assignInPlace(currentPlain, nextPlain);
    this.#status = { state: restartNeeded.length > 0 ? 'restart-needed' : 'ok', loadedAt: this.clock.now(), restartNeeded };
    if (applied.length > 0) {
      this.log.info(`config reloaded: ${applied.join(', ')}`);
      for (const listener of [...this.#listeners]) {
        try {
          await listener(applied);
        } catch (error) {
          this.log.warn(`applying the new config failed in part: ${String(error)}`);
        }
      }
    }
    if (restartNeeded.length > 0) this.log.warn(`config: ${restartNeeded.join(', ')} changed; run \`claw gateway restart\` to apply`);
    return this.#status;
  }

  /** The status without its time: what a client would be told. */
  #summary(): string {
    const { loadedAt: _loadedAt, ...rest } = this.#status;
    return JSON.stringify(rest);
  }

  close(): void {
    this.#watcher?.close();
    if (this.#timer) this.clock.clearTimer(this.#timer);
  }
}
