import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, readdirSync, renameSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../config/index.js';
import { transcriptHeader } from '../protocol/index.js';
import { parseSessionKey } from '../routing/index.js';
import { sessionStoreFile, type SessionEntry } from './session-entry.js';

export interface StoreWarning {
  (message: string): void;
}

const HEADER_BYTES = 16 * 1024;

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
 * and one coalesced atomic write (temp + fsync + rename, on the thread pool)
 * persists the latest state. No caller ever waits for that fsync.
 */
export class SessionStore {
  private readonly entries = new Map<string, SessionEntry>();
  private writing: Promise<void> | undefined;
  private dirty = false;
  private readonly file: string;

  constructor(readonly dir: string, private readonly warn: StoreWarning = () => undefined) {
    this.file = join(dir, 'sessions.json');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.loadSync();
  }

  get path(): string {
    return this.file;
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

  /** Resolves when the state as of this call is on disk. */
  async flush(): Promise<void> {
    while (this.writing || this.dirty) {
      if (this.writing) await this.writing;
      else this.startWrite();
    }
  }

  private markDirty(): void {
    this.dirty = true;
    if (!this.writing) queueMicrotask(() => { if (!this.writing && this.dirty) this.startWrite(); });
  }

  private startWrite(): void {
    this.dirty = false;
    const text = JSON.stringify({ version: 1, sessions: Object.fromEntries(this.entries) }, null, 1);
    this.writing = writeFileAtomic(this.file, text, 0o600)
      .catch((error: unknown) => {
        this.warn(`could not write ${this.file}: ${String(error)}; will retry on the next change`);
        this.dirty = true;
      })
      .finally(() => {
        this.writing = undefined;
        if (this.dirty) this.startWrite();
      });
  }

  private loadSync(): void {
    // Temp files left by a crash between write and rename hold a state that never became current.
    for (const name of readdirSync(this.dir)) {
      if (name.startsWith('.sessions.json.') && name.endsWith('.tmp')) {
        try { unlinkSync(join(this.dir, name)); } catch { /* gone */ }
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
      if (current && (current.sessionId === id || current.createdAt >= createdAt)) continue;
      this.entries.set(key, current
        ? { ...current, sessionId: id, createdAt, updatedAt: Math.max(current.updatedAt, createdAt) }
        : { sessionId: id, kind, createdAt, updatedAt: createdAt, tokens: { input: 0, output: 0, context: 0 }, costUsd: 0, compactionCount: 0 });
      changed = true;
    }
    if (changed) this.markDirty();
  }
}
