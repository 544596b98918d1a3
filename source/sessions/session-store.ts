import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, readdirSync, renameSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { errorCode, nodeFileOps, writeFileAtomic, type FileOps, systemClock, type Clock } from '../config/index.js';
import { transcriptHeader } from '../protocol/index.js';
import { parseSessionKey } from '../routing/index.js';
import { sessionStoreFile, type SessionEntry } from './session-entry.js';

export type StoreWarning = (message: string) => void;

const HEADER_BYTES = 16 * 1024;
/**
 * Changes wait this long before a write starts, so one turn's (the user's
 * message, the reply, the usage) land in one write rather than two or three;
 * nothing waits for sessions.json, and a crash inside the window loses only
 * what startup rebuilds from the transcript headers.
 */
const WRITE_DELAY_MS = 100;
/** A failed write is retried after this, doubling per failure up to RETRY_MAX_MS. */
const RETRY_FIRST_MS = 250;
const RETRY_MAX_MS = 30_000;
/** A write that keeps failing is logged once per this interval, with a count. */
const WARN_INTERVAL_MS = 60_000;

/** The header line only: startup reads every transcript's, so never the whole file. */
function readHeaderSync(path: string): unknown {
  const buffer = Buffer.alloc(HEADER_BYTES);
  const fd = openSync(path, 'r');
  let length: number;
  try {
    length = readSync(fd, buffer, 0, HEADER_BYTES, 0);
  } finally {
    closeSync(fd);
  }
  const text = buffer.subarray(0, length).toString('utf8');
  const newline = text.indexOf('\n');
  try {
    return JSON.parse(newline < 0 ? text : text.slice(0, newline));
  } catch {
    return undefined;
  }
}

/**
 * sessions.json of one agent. The map lives in memory; changes mark it dirty
 * and one coalesced atomic write (temp + fsync + rename, on the thread pool),
 * WRITE_DELAY_MS after the first of them, persists the latest state. No
 * caller ever waits for that fsync; flush() writes at once.
 */
export class SessionStore {
  private readonly entries = new Map<string, SessionEntry>();
  private writing: Promise<void> | undefined;
  private dirty = false;
  private readonly file: string;
  /** Consecutive failed writes; while above 0 writes wait for the backoff timer. */
  private failures = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private delayTimer: NodeJS.Timeout | undefined;
  private lastWarnAt = -Infinity;
  private unreported = 0;

  constructor(
    readonly dir: string,
    private readonly warn: StoreWarning = () => undefined,
    private readonly ops: FileOps = nodeFileOps,
    private readonly clock: Pick<Clock, 'now'> = systemClock,
  ) {
    this.file = join(dir, 'sessions.json');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.loadSync();
  }

  get path(): string {
    return this.file;
  }

  /** Whether the last write of sessions.json failed (and a retry is pending). */
  get failing(): boolean {
    return this.failures > 0;
  }

  get(key: string): SessionEntry | undefined {
    return this.entries.get(key);
  }

  all(): Array<[string, SessionEntry]> {
    return [...this.entries];
  }

  set(key: string, entry: SessionEntry): void {
    this.entries.set(key, entry);
    this.markDirty();
  }

  delete(key: string): boolean {
    const had = this.entries.delete(key);
    if (had) this.markDirty();
    return had;
  }

  /** Resolves when the state as of this call is on disk; rejects when the write fails again. */
  async flush(): Promise<void> {
    while (this.writing || this.dirty) {
      if (this.writing) {
        await this.writing;
        if (this.failures > 0) throw new Error(`could not write ${this.file} (${this.failures} attempt(s) failed); free disk space in the state dir`);
        continue;
      }
      clearTimeout(this.retryTimer);
      this.retryTimer = undefined;
      this.startWrite();
    }
  }

  /** Stops the timers; what is not written stays unwritten. */
  close(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    clearTimeout(this.delayTimer);
    this.delayTimer = undefined;
  }

  private markDirty(): void {
    this.dirty = true;
    if (!this.writing && !this.retryTimer) this.scheduleWrite();
  }

  private scheduleWrite(): void {
    if (this.delayTimer) return;
    this.delayTimer = setTimeout(() => {
      this.delayTimer = undefined;
      if (!this.writing && !this.retryTimer && this.dirty) this.startWrite();
    }, WRITE_DELAY_MS);
    this.delayTimer.unref();
  }

  private startWrite(): void {
    clearTimeout(this.delayTimer);
    this.delayTimer = undefined;
    this.dirty = false;
    const text = JSON.stringify({ version: 1, sessions: Object.fromEntries(this.entries) }, null, 1);
    this.writing = writeFileAtomic(this.file, text, 0o600, this.ops)
      .then(
        () => {
          if (this.failures > 0) this.warn(`${this.file} is written again after ${this.failures} failed attempt(s)`);
          this.failures = 0;
          this.unreported = 0;
          this.lastWarnAt = -Infinity;
        },
        (error: unknown) => {
          this.dirty = true;
          this.failures += 1;
          this.reportFailure(error);
        },
      )
      .finally(() => {
        this.writing = undefined;
        if (!this.dirty) return;
        if (this.failures === 0) this.scheduleWrite();
        else this.scheduleRetry();
      });
  }

  private scheduleRetry(): void {
    if (this.retryTimer) return;
    const delay = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** Math.min(this.failures - 1, 16));
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (!this.writing && this.dirty) this.startWrite();
    }, delay);
    this.retryTimer.unref();
  }

  /** One line per WARN_INTERVAL_MS however often the write fails: a full disk must not also fill the log. */
  private reportFailure(error: unknown): void {
    this.unreported += 1;
    const now = this.clock.now();
    if (now - this.lastWarnAt < WARN_INTERVAL_MS) return;
    this.lastWarnAt = now;
    const count = this.unreported;
    this.unreported = 0;
    this.warn(
      `could not write ${this.file} (${errorCode(error)}; ${count} failure(s) since the last report); retrying with backoff up to ${RETRY_MAX_MS / 1000}s. Free disk space in the state dir.`,
    );
  }

  private loadSync(): void {
    // Temp files left by a crash between write and rename hold a state that never became current.
    for (const name of readdirSync(this.dir)) {
      if (name.startsWith('.sessions.json.') && name.endsWith('.tmp')) {
        try {
          unlinkSync(join(this.dir, name));
        } catch {
          /* gone */
        }
      }
    }
    if (!existsSync(this.file)) {
      this.rebuildFromTranscripts();
      return;
    }
    let parsed;
    try {
      parsed = sessionStoreFile.safeParse(JSON.parse(readFileSync(this.file, 'utf8')));
    } catch {
      parsed = undefined;
    }
    if (parsed?.success) {
      for (const [key, entry] of Object.entries(parsed.data.sessions)) this.entries.set(key, entry);
      this.rebuildFromTranscripts();
      return;
    }
    const aside = `${this.file}.corrupt.${Date.now()}`;
    renameSync(this.file, aside);
    this.warn(`${this.file} was unreadable; moved it to ${aside} and rebuilt the index from transcript headers`);
    this.rebuildFromTranscripts();
    this.markDirty();
  }

  /**
   * Brings the index in line with the transcripts on disk. sessions.json is
   * written lazily, so a crash can leave a transcript it does not name yet (a
   * new session, or one started by a reset); such a transcript is adopted, the
   * newest per key winning, so its messages are never appended a second time
   * into yet another file. Settings of a known key are kept; an index rebuilt
   * from nothing loses settings (model, labels), never conversations.
   */
  private rebuildFromTranscripts(): void {
    let changed = false;
    for (const name of readdirSync(this.dir)) {
      if (!name.endsWith('.jsonl')) continue;
      const header = transcriptHeader.safeParse(readHeaderSync(join(this.dir, name)));
      if (!header.success) continue;
      const { key, id, createdAt } = header.data;
      const kind = parseSessionKey(key)?.kind;
      if (!kind) continue;
      const current = this.entries.get(key);
      // An entry whose transcript is gone must not hide one that exists: that conversation would look empty.
      const named = current !== undefined && existsSync(join(this.dir, `${current.sessionId}.jsonl`));
      if (current && (current.sessionId === id || (named && current.createdAt >= createdAt))) continue;
      this.entries.set(
        key,
        current
          ? { ...current, sessionId: id, createdAt, updatedAt: Math.max(current.updatedAt, createdAt) }
          : { sessionId: id, kind, createdAt, updatedAt: createdAt, tokens: { input: 0, output: 0, context: 0 }, costUsd: 0, compactionCount: 0 },
      );
      changed = true;
    }
    if (changed) this.markDirty();
  }
}
