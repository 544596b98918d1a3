import { closeSync, fstatSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { searchableMessage } from './message-text.js';
import { makeSnippet, queryTerms } from './snippet.js';

/** A transcript the index should cover: the current file of one session key. */
export interface SearchSource {
  sessionKey: string;
  agentId: string;
  sessionId: string;
  file: string;
}

export interface TranscriptHit {
  sessionKey: string;
  sessionId: string;
  entryId: string;
  role: 'user' | 'assistant';
  timestamp: number;
  snippet: string;
  highlights: Array<[number, number]>;
  score: number;
}

/** The trigram tokenizer needs three characters to use its index; shorter words are matched with LIKE. */
const TRIGRAM = 3;
const READ_CHUNK = 1 << 20;
/** Newest matches ranked per query; older ones rank only when fewer than this match. */
const CANDIDATES = 200;

type HitRow = Omit<TranscriptHit, 'snippet' | 'highlights' | 'score'> & { body: string };

/** Occurrences of the query words, weighted towards short messages (a term-frequency score, like BM25's). */
function relevance(body: string, terms: readonly string[]): number {
  const lower = body.toLowerCase();
  let hits = 0;
  for (const term of terms) for (let i = lower.indexOf(term); i !== -1; i = lower.indexOf(term, i + term.length)) hits += 1;
  return hits / Math.log2(2 + lower.length / 80);
}

interface FileRow {
  file: string;
  session_key: string;
  session_id: string;
  agent_id: string;
  offset: number;
  ino: number;
}

/**
 * Full-text search over session transcripts in SQLite FTS5 with the trigram
 * tokenizer, which finds substrings in any script (Chinese and Japanese have
 * no spaces for a word tokenizer to split on). The index follows the JSONL
 * files by byte offset: each `sync` reads only what was appended since the
 * last one, re-reads a file that shrank or was replaced, and drops files that
 * are no longer a session's current transcript. It lives in its own SQLite
 * file, so a restart reads nothing twice.
 */
export class TranscriptSearchIndex {
  private readonly db: Database.Database;

  constructor(path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS files (file TEXT PRIMARY KEY, session_key TEXT NOT NULL, session_id TEXT NOT NULL, agent_id TEXT NOT NULL, offset INTEGER NOT NULL, ino INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS messages (id INTEGER PRIMARY KEY, file TEXT NOT NULL, session_key TEXT NOT NULL, session_id TEXT NOT NULL, agent_id TEXT NOT NULL, entry_id TEXT NOT NULL, role TEXT NOT NULL, ts INTEGER NOT NULL);
      CREATE INDEX IF NOT EXISTS messages_file ON messages(file);
      CREATE VIRTUAL TABLE IF NOT EXISTS bodies USING fts5(body, tokenize = 'trigram');
    `);
  }

  /** Brings the index up to date with the given transcripts; returns the number of messages added. */
  sync(sources: readonly SearchSource[]): number {
    const known = new Map((this.db.prepare('SELECT * FROM files').all() as FileRow[]).map((row) => [row.file, row]));
    const wanted = new Set(sources.map((s) => s.file));
    let added = 0;
    const apply = this.db.transaction(() => {
      for (const [file] of known) if (!wanted.has(file)) this.dropFile(file);
      for (const source of sources) added += this.syncFile(source, known.get(source.file));
    });
    apply();
    return added;
  }

  private dropFile(file: string): void {
    this.db.prepare('DELETE FROM bodies WHERE rowid IN (SELECT id FROM messages WHERE file = ?)').run(file);
    this.db.prepare('DELETE FROM messages WHERE file = ?').run(file);
    this.db.prepare('DELETE FROM files WHERE file = ?').run(file);
  }

  private syncFile(source: SearchSource, row: FileRow | undefined): number {
    let stat;
    try {
      stat = statSync(source.file);
    } catch {
      if (row) this.dropFile(source.file);
      return 0;
    }
    const replaced = row !== undefined && (row.ino !== stat.ino || stat.size < row.offset || row.session_id !== source.sessionId || row.session_key !== source.sessionKey);
    if (replaced) this.dropFile(source.file);
    const from = row && !replaced ? row.offset : 0;
    if (row && !replaced && stat.size === row.offset) return 0;
    const { lines, offset } = readCompleteLines(source.file, from);
    const insertMessage = this.db.prepare('INSERT INTO messages (file, session_key, session_id, agent_id, entry_id, role, ts) VALUES (?, ?, ?, ?, ?, ?, ?)');
    const insertBody = this.db.prepare('INSERT INTO bodies (rowid, body) VALUES (?, ?)');
    let added = 0;
    for (const line of lines) {
      const message = searchableMessage(line);
      if (!message) continue;
      const { lastInsertRowid } = insertMessage.run(source.file, source.sessionKey, source.sessionId, source.agentId, message.entryId, message.role, message.timestamp);
      insertBody.run(lastInsertRowid, message.text);
      added += 1;
    }
    this.db.prepare('INSERT INTO files (file, session_key, session_id, agent_id, offset, ino) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(file) DO UPDATE SET session_key = excluded.session_key, session_id = excluded.session_id, agent_id = excluded.agent_id, offset = excluded.offset, ino = excluded.ino')
      .run(source.file, source.sessionKey, source.sessionId, source.agentId, offset, stat.ino);
    return added;
  }

  /**
   * Messages containing every word of the query (case-insensitive), best
   * first. FTS5's own bm25 ordering costs ~30 ms when a common word matches
   * thousands of messages (it scores every match), so the newest
   * CANDIDATES matches come from the index in rowid order (its fast path) and
   * are ranked here: more occurrences and words in a short message first,
   * then newer.
   */
  search(query: string, options: { agentId?: string | undefined; limit: number }): TranscriptHit[] {
    const terms = queryTerms(query);
    if (terms.length === 0) return [];
    const long = terms.filter((t) => [...t].length >= TRIGRAM);
    const short = terms.filter((t) => [...t].length < TRIGRAM);
    const like = short.map((t) => `%${t.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const conditions = short.map(() => "bodies.body LIKE ? ESCAPE '\\'");
    const params: unknown[] = [];
    if (long.length > 0) {
      conditions.unshift('bodies MATCH ?');
      params.push(long.map((t) => `"${t.replace(/"/g, '""')}"`).join(' '));
    }
    params.push(...like);
    if (options.agentId) {
      conditions.push('messages.agent_id = ?');
      params.push(options.agentId);
    }
    const rows = this.db.prepare(`
      SELECT messages.session_key AS sessionKey, messages.session_id AS sessionId, messages.entry_id AS entryId, messages.role AS role, messages.ts AS timestamp, bodies.body AS body
      FROM bodies JOIN messages ON messages.id = bodies.rowid
      WHERE ${conditions.join(' AND ')}
      ORDER BY bodies.rowid DESC LIMIT ?`).all(...params, CANDIDATES) as HitRow[];
    return rows
      .map((row) => ({ row, score: relevance(row.body, terms) }))
      .sort((a, b) => b.score - a.score || b.row.timestamp - a.row.timestamp)
      .slice(0, options.limit)
      .map(({ row: { body, ...row }, score }) => ({ ...row, ...makeSnippet(body, terms), score }));
  }

  /** Messages indexed, for status and tests. */
  count(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n;
  }

  close(): void {
    this.db.close();
  }
}

/** Reads whole lines from `offset`; a torn last line stays unread until its newline arrives. */
function readCompleteLines(file: string, offset: number): { lines: string[]; offset: number } {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const chunks: Buffer[] = [];
    let position = offset;
    while (position < size) {
      const buffer = Buffer.allocUnsafe(Math.min(READ_CHUNK, size - position));
      const read = readSync(fd, buffer, 0, buffer.length, position);
      if (read === 0) break;
      chunks.push(buffer.subarray(0, read));
      position += read;
    }
    const data = Buffer.concat(chunks);
    const end = data.lastIndexOf(0x0a);
    if (end === -1) return { lines: [], offset };
    return { lines: data.subarray(0, end).toString('utf8').split('\n').filter((l) => l.trim() !== ''), offset: offset + end + 1 };
  } finally {
    closeSync(fd);
  }
}
