import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type Database from 'better-sqlite3';
import { segmentForIndex } from './text-tokens.js';
import type { Chunk, MemoryFile, MemorySource } from './types.js';

interface Sqlite {
  Database: typeof Database;
  vec: { load(db: Database.Database): void };
}

let sqlite: Sqlite | undefined;

/** The native SQLite and its vector extension load with the first index opened, not with the daemon's code. */
function loadSqlite(): Sqlite {
  if (!sqlite) {
    const require = createRequire(import.meta.url);
    sqlite = { Database: require('better-sqlite3') as typeof Database, vec: require('sqlite-vec') as Sqlite['vec'] };
  }
  return sqlite;
}

export interface FileRow {
  path: string;
  hash: string;
  mtime: number;
  size: number;
}

export interface ChunkRow {
  id: number;
  path: string;
  source: MemorySource;
  startLine: number;
  endLine: number;
  hash: string;
  text: string;
  /** Epoch ms the chunk is about: its note's date, a date heading or `Updated:` line, else the file's mtime. */
  noteTime: number;
  noteTimeFrom: NoteTimeSource;
}

export type NoteTimeSource = 'file name' | 'heading' | 'file time';

export interface DatedChunk extends Chunk {
  noteTime: number;
  noteTimeFrom: NoteTimeSource;
}

export interface PendingChunk {
  id: number;
  hash: string;
  text: string;
  /** 1 when a vector from another model is stored for this chunk. */
  hasVector: number;
}

export interface StoreOptions {
  /** Load the vector extension from here instead of the sqlite-vec package (tests use a bad path). */
  vecExtensionPath?: string;
}

// 2: chunks carry the time they are about (recency ranking) and the FTS table keeps no copy of
// the text; older indexes are rebuilt from the files.
const SCHEMA_VERSION = 2;
// Contentless: chunks.text is the one copy of the text (search never reads it back from FTS), which
// makes a full build about a third cheaper; contentless_delete keeps per-row deletes possible.
const FTS_OPTIONS = "content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2'";

function toBlob(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

function fromBlob(blob: Buffer): Float32Array {
  return new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
}

/**
 * The per-agent SQLite index: files, chunks, an FTS5 table and (when the
 * extension loads) a sqlite-vec table, plus the embedding cache. It is a
 * cache of the markdown files and can always be rebuilt from them.
 */
export class IndexStore {
  readonly db: Database.Database;
  readonly vecError: string | undefined;
  private vecDims: number | undefined;
  private chunkTotal: number | undefined;
  private readonly statements = new Map<string, Database.Statement>();

  constructor(
    readonly path: string,
    options: StoreOptions = {},
  ) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const { Database: Sqlite, vec } = loadSqlite();
    this.db = new Sqlite(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('cache_size = -65536');
    this.db.pragma('mmap_size = 268435456');
    try {
      if (options.vecExtensionPath) this.db.loadExtension(options.vecExtensionPath);
      else vec.load(this.db);
    } catch (error) {
      this.vecError = `The sqlite-vec extension failed to load (${(error as Error).message.split('\n')[0]}); vector search is off and search is keyword-only. Reinstall with \`npm ci\` on this machine's platform.`;
    }
    this.migrate();
    const dims = Number(this.getMeta('vec_dims'));
    this.vecDims = this.vecError === undefined && dims > 0 ? dims : undefined;
  }

  private migrate(): void {
    const version = this.db.pragma('user_version', { simple: true }) as number;
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS files (path TEXT PRIMARY KEY, abs_path TEXT NOT NULL, source TEXT NOT NULL, hash TEXT NOT NULL, mtime INTEGER NOT NULL, size INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS chunks (
        id INTEGER PRIMARY KEY AUTOINCREMENT, path TEXT NOT NULL, source TEXT NOT NULL,
        start_line INTEGER NOT NULL, end_line INTEGER NOT NULL, hash TEXT NOT NULL, text TEXT NOT NULL,
        embedded_model TEXT, note_time INTEGER NOT NULL DEFAULT 0, note_time_from TEXT NOT NULL DEFAULT 'file time');
      CREATE INDEX IF NOT EXISTS chunks_path ON chunks(path);
      CREATE INDEX IF NOT EXISTS chunks_embedded ON chunks(embedded_model);
      CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(text, ${FTS_OPTIONS});
      CREATE TABLE IF NOT EXISTS embedding_cache (hash TEXT NOT NULL, model TEXT NOT NULL, dims INTEGER NOT NULL, vector BLOB NOT NULL, PRIMARY KEY (hash, model)) WITHOUT ROWID;
    `);
    const columns = (this.db.pragma('table_info(chunks)') as { name: string }[]).map((column) => column.name);
    if (!columns.includes('note_time')) {
      this.db.exec(
        "ALTER TABLE chunks ADD COLUMN note_time INTEGER NOT NULL DEFAULT 0; ALTER TABLE chunks ADD COLUMN note_time_from TEXT NOT NULL DEFAULT 'file time';",
      );
    }
    if (version !== 0 && version < SCHEMA_VERSION) {
      // Rebuilt from the files on the next sync; vectors come back from the embedding cache.
      this.db.exec(`DROP TABLE IF EXISTS chunks_vec; DELETE FROM meta WHERE key = 'vec_dims';
        DROP TABLE chunks_fts; CREATE VIRTUAL TABLE chunks_fts USING fts5(text, ${FTS_OPTIONS});`);
      this.clear();
    }
    if (version < SCHEMA_VERSION) this.db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }

  private stmt(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /**
   * Runs `work` in one transaction. FTS5 flushes a segment per commit, so
   * grouping many files per commit makes a full build several times faster;
   * each file's rows still land together or not at all.
   */
  batch<T>(work: () => T): T {
    return this.db.transaction(work)();
  }

  getMeta(key: string): string | undefined {
    return this.stmt('SELECT value FROM meta WHERE key = ?').pluck().get(key) as string | undefined;
  }

  setMeta(key: string, value: string | undefined): void {
    if (value === undefined) this.stmt('DELETE FROM meta WHERE key = ?').run(key);
    else this.stmt('INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  get vectorsAvailable(): boolean {
    return this.vecError === undefined;
  }

  get vectorDims(): number | undefined {
    return this.vecDims;
  }

  fileRows(): Map<string, FileRow> {
    const rows = this.stmt('SELECT path, hash, mtime, size FROM files').all() as FileRow[];
    return new Map(rows.map((row) => [row.path, row]));
  }

  /**
   * Replaces a file's chunks in one transaction, so an interrupted run never
   * leaves half a file. `isNew` (no row in `files`) skips looking for old chunks.
   */
  replaceFile(file: MemoryFile, meta: { hash: string; mtime: number; size: number }, chunks: DatedChunk[], isNew = false): void {
    const insertChunk = this.stmt(
      'INSERT INTO chunks(path, source, start_line, end_line, hash, text, note_time, note_time_from) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.chunkTotal = undefined;
    const insertFts = this.stmt('INSERT INTO chunks_fts(rowid, text) VALUES (?, ?)');
    this.db.transaction(() => {
      if (!isNew) this.deleteChunks(file.path);
      for (const chunk of chunks) {
        const { lastInsertRowid } = insertChunk.run(
          file.path,
          file.source,
          chunk.startLine,
          chunk.endLine,
          chunk.hash,
          chunk.text,
          chunk.noteTime,
          chunk.noteTimeFrom,
        );
        insertFts.run(lastInsertRowid, segmentForIndex(chunk.text));
      }
      this.stmt(`INSERT INTO files(path, abs_path, source, hash, mtime, size) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT(path) DO UPDATE SET abs_path = excluded.abs_path, source = excluded.source, hash = excluded.hash, mtime = excluded.mtime, size = excluded.size`).run(
        file.path,
        file.absPath,
        file.source,
        meta.hash,
        meta.mtime,
        meta.size,
      );
    })();
  }

  /** Records a new mtime for a file whose content hash did not change; chunks dated by the file time follow it. */
  touchFile(path: string, mtime: number, size: number): void {
    this.stmt('UPDATE files SET mtime = ?, size = ? WHERE path = ?').run(mtime, size, path);
    this.stmt("UPDATE chunks SET note_time = ? WHERE path = ? AND note_time_from = 'file time'").run(Math.floor(mtime / 1000), path);
  }

  removeFile(path: string): void {
    this.chunkTotal = undefined;
    this.db.transaction(() => {
      this.deleteChunks(path);
      this.stmt('DELETE FROM files WHERE path = ?').run(path);
    })();
  }

  private deleteChunks(path: string): void {
    const ids = this.stmt('SELECT id FROM chunks WHERE path = ?').pluck().all(path) as number[];
    const deleteFts = this.stmt('DELETE FROM chunks_fts WHERE rowid = ?');
    const deleteVec = this.vecDims ? this.db.prepare('DELETE FROM chunks_vec WHERE rowid = ?') : undefined;
    for (const id of ids) {
      deleteFts.run(id);
      deleteVec?.run(BigInt(id));
    }
    this.stmt('DELETE FROM chunks WHERE path = ?').run(path);
  }

  /** Chunks without a vector from `model` after `afterId`, in id order (a cursor, so every pass ends). */
  pendingChunks(model: string, afterId: number, limit: number): PendingChunk[] {
    return this.stmt(
      'SELECT id, hash, text, embedded_model IS NOT NULL AS hasVector FROM chunks WHERE id > ? AND (embedded_model IS NULL OR embedded_model != ?) ORDER BY id LIMIT ?',
    ).all(afterId, model, limit) as PendingChunk[];
  }

  /** Chunks never embedded; walks only the NULL entries of an index, so searches can afford it. */
  countUnembedded(): number {
    return this.stmt('SELECT count(*) FROM chunks WHERE embedded_model IS NULL').pluck().get() as number;
  }

  countPending(model: string): number {
    return this.stmt('SELECT count(*) FROM chunks WHERE embedded_model IS NULL OR embedded_model != ?').pluck().get(model) as number;
  }

  cachedVectors(hashes: string[], model: string): Map<string, Float32Array> {
    const get = this.stmt('SELECT vector FROM embedding_cache WHERE hash = ? AND model = ?').pluck();
    const out = new Map<string, Float32Array>();
    for (const hash of new Set(hashes)) {
      const blob = get.get(hash, model) as Buffer | undefined;
      if (blob) out.set(hash, fromBlob(blob));
    }
    return out;
  }

  private ensureVecTable(dims: number): void {
    if (this.vecDims === dims) return;
    // A new model with another width invalidates every stored vector.
    this.db.exec('DROP TABLE IF EXISTS chunks_vec');
    this.db.exec(`CREATE VIRTUAL TABLE chunks_vec USING vec0(embedding float[${dims}] distance_metric=cosine)`);
    this.db.exec('UPDATE chunks SET embedded_model = NULL');
    this.setMeta('vec_dims', String(dims));
    this.vecDims = dims;
  }

  /** Stores vectors for chunks (and in the cache) in one transaction. */
  storeVectors(rows: (PendingChunk & { vector: Float32Array })[], model: string): void {
    if (!this.vectorsAvailable || rows.length === 0) return;
    this.db.transaction(() => {
      this.ensureVecTable(rows[0]!.vector.length);
      const cache = this.stmt('INSERT OR REPLACE INTO embedding_cache(hash, model, dims, vector) VALUES (?, ?, ?, ?)');
      // The vec table may have just been recreated: prepare against the current one.
      const del = this.db.prepare('DELETE FROM chunks_vec WHERE rowid = ?');
      const ins = this.db.prepare('INSERT INTO chunks_vec(rowid, embedding) VALUES (?, ?)');
      const mark = this.stmt('UPDATE chunks SET embedded_model = ? WHERE id = ?');
      for (const row of rows) {
        if (row.vector.length !== this.vecDims) continue;
        cache.run(row.hash, model, row.vector.length, toBlob(row.vector));
        // Chunk ids are never reused, so only a chunk re-embedded for a new model has an old row.
        if (row.hasVector) del.run(BigInt(row.id));
        ins.run(BigInt(row.id), toBlob(row.vector));
        mark.run(model, row.id);
      }
    })();
  }

  chunkCount(): number {
    this.chunkTotal ??= this.stmt('SELECT count(*) FROM chunks').pluck().get() as number;
    return this.chunkTotal;
  }

  /** Every chunk matching one FTS5 expression: its size is the term's document frequency. */
  termMatches(match: string): Set<number> {
    return new Set(this.stmt('SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?').pluck().all(match) as number[]);
  }

  keywordSearch(match: string, limit: number): { id: number; rank: number }[] {
    return this.stmt('SELECT rowid AS id, bm25(chunks_fts) AS rank FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rank LIMIT ?').all(match, limit) as {
      id: number;
      rank: number;
    }[];
  }

  vectorSearch(vector: Float32Array, k: number): { id: number; distance: number }[] {
    if (!this.vecDims || vector.length !== this.vecDims) return [];
    return this.stmt('SELECT rowid AS id, distance FROM chunks_vec WHERE embedding MATCH ? AND k = ?').all(toBlob(vector), k) as {
      id: number;
      distance: number;
    }[];
  }

  chunksByIds(ids: number[]): Map<number, ChunkRow> {
    if (ids.length === 0) return new Map();
    // One placeholder per id: SQLite looks each up by primary key (an IN over json_each scans the table instead).
    const rows = this.stmt(
      `SELECT id, path, source, start_line AS startLine, end_line AS endLine, hash, text, note_time AS noteTime, note_time_from AS noteTimeFrom FROM chunks WHERE id IN (${ids.map(() => '?').join(',')})`,
    ).all(...ids) as ChunkRow[];
    return new Map(rows.map((row) => [row.id, row]));
  }

  counts(): { files: number; chunks: number; embedded: number } {
    const row = this.stmt(
      'SELECT (SELECT count(*) FROM files) AS files, (SELECT count(*) FROM chunks) AS chunks, (SELECT count(*) FROM chunks WHERE embedded_model IS NOT NULL) AS embedded',
    ).get() as { files: number; chunks: number; embedded: number };
    return row;
  }

  /** Drops every file and chunk (the embedding cache stays: it is keyed by content). */
  clear(): void {
    this.chunkTotal = undefined;
    this.db.transaction(() => {
      this.db.exec("DELETE FROM chunks; DELETE FROM files; INSERT INTO chunks_fts(chunks_fts) VALUES ('delete-all');");
      if (this.vecDims) this.db.exec('DELETE FROM chunks_vec');
    })();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
