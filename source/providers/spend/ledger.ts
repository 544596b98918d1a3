import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type Database from 'better-sqlite3';

/** Tokens and dollars, the two units every budget counts in. */
export interface Amount {
  tokens: number;
  usd: number;
}

/** One model call as the ledger records it. */
export interface CallRecord {
  id: string;
  at: number;
  /** The local day (`YYYY-MM-DD`, in the budgets' time zone) the call was reserved on. */
  day: string;
  agent: string;
  session: string;
  model: string;
  /** `interactive`, or a background kind (`heartbeat`, `cron`, …). */
  kind: string;
  /** Every total the call counts towards (`g:<day>`, `s:<session id>`, …). */
  scopes: readonly string[];
}

export interface Settlement extends Amount {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** The provider reported no usage: the figures are the request's estimate. */
  estimated: boolean;
}

export interface UsageRow {
  day: string;
  agent: string;
  session: string;
  model: string;
  kind: string;
  calls: number;
  tokens: number;
  usd: number;
  estimated: number;
}

let sqlite: typeof Database | undefined;

/** The native SQLite loads with the first ledger opened (the first model call), not with the daemon. */
function loadSqlite(): typeof Database {
  sqlite ??= createRequire(import.meta.url)('better-sqlite3') as typeof Database;
  return sqlite;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS calls (
  id TEXT PRIMARY KEY,
  at INTEGER NOT NULL,
  day TEXT NOT NULL,
  agent TEXT NOT NULL,
  session TEXT NOT NULL,
  model TEXT NOT NULL,
  kind TEXT NOT NULL,
  state TEXT NOT NULL,
  tokens INTEGER NOT NULL,
  usd REAL NOT NULL,
  input INTEGER NOT NULL DEFAULT 0,
  output INTEGER NOT NULL DEFAULT 0,
  cache_read INTEGER NOT NULL DEFAULT 0,
  cache_write INTEGER NOT NULL DEFAULT 0,
  estimated INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS calls_day ON calls(day);
CREATE INDEX IF NOT EXISTS calls_state ON calls(state) WHERE state = 'reserved';
CREATE TABLE IF NOT EXISTS charges (scope TEXT NOT NULL, call TEXT NOT NULL, PRIMARY KEY (scope, call)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS paused (session TEXT PRIMARY KEY, at INTEGER NOT NULL, reason TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS warned (scope TEXT NOT NULL, limit_key TEXT NOT NULL, PRIMARY KEY (scope, limit_key)) WITHOUT ROWID;
`;

/** Calls between checkpoints of the write-ahead log (~1,000 pages, SQLite's own default). */
const CHECKPOINT_EVERY = 250;

/** Totals kept in memory at most this many scopes; past it they are read again from disk. */
const MAX_CACHED = 4096;

/**
 * Every model call's reservation and settlement, in SQLite (WAL): a call is
 * reserved at its worst case before it is made, settled with the provider's
 * figures after. A reservation is committed before the request leaves, so a
 * kill -9 can lose neither; a reservation a crash left open is settled at its
 * worst case when the ledger opens again (the call may have been billed and
 * nobody saw the bill). Totals per scope are summed on first use and then
 * kept in memory, so a check is a few map reads.
 */
export class SpendLedger {
  readonly #db: Database.Database;
  readonly #totals = new Map<string, Amount>();
  readonly #insertCall: Database.Statement;
  readonly #insertCharge: Database.Statement;
  readonly #settle: Database.Statement;
  readonly #sum: Database.Statement;
  readonly #reserve: (record: CallRecord, worst: Amount) => void;
  #writes = 0;
  #checkpointing: NodeJS.Immediate | undefined;
  /** Calls a crash left reserved, settled at their worst case when the ledger opened. */
  readonly recovered: number;

  constructor(file: string, options: { readonly?: boolean } = {}) {
    if (!options.readonly) mkdirSync(dirname(file), { recursive: true });
    const SQLite = loadSqlite();
    this.#db = new SQLite(file, options.readonly ? { readonly: true, fileMustExist: true } : {});
    if (!options.readonly) {
      this.#db.pragma('journal_mode = WAL');
      // A commit survives a killed process with NORMAL; only a power cut can take the last ones.
      this.#db.pragma('synchronous = NORMAL');
      // A checkpoint fsyncs the database (milliseconds): it runs after a call, never inside a reservation.
      this.#db.pragma('wal_autocheckpoint = 0');
      this.#db.exec(SCHEMA);
    }
    this.#db.pragma('busy_timeout = 5000');
    this.#insertCall = this.#db.prepare(
      `INSERT INTO calls (id, at, day, agent, session, model, kind, state, tokens, usd) VALUES (?, ?, ?, ?, ?, ?, ?, 'reserved', ?, ?)`,
    );
    this.#insertCharge = this.#db.prepare('INSERT OR IGNORE INTO charges (scope, call) VALUES (?, ?)');
    this.#settle = this.#db.prepare(
      `UPDATE calls SET state = 'settled', tokens = ?, usd = ?, input = ?, output = ?, cache_read = ?, cache_write = ?, estimated = ? WHERE id = ? AND state = 'reserved'`,
    );
    this.#sum = this.#db.prepare(
      'SELECT COALESCE(SUM(c.tokens), 0) AS tokens, COALESCE(SUM(c.usd), 0) AS usd FROM charges ch JOIN calls c ON c.id = ch.call WHERE ch.scope = ?',
    );
    this.#reserve = this.#db.transaction((record: CallRecord, worst: Amount) => {
      this.#insertCall.run(record.id, record.at, record.day, record.agent, record.session, record.model, record.kind, worst.tokens, worst.usd);
      for (const scope of record.scopes) this.#insertCharge.run(scope, record.id);
    });
    this.recovered = options.readonly ? 0 : this.#db.prepare(`UPDATE calls SET state = 'orphaned', estimated = 1 WHERE state = 'reserved'`).run().changes;
  }

  /** What a scope has spent and holds in open reservations. */
  total(scope: string): Amount {
    let total = this.#totals.get(scope);
    if (!total) {
      if (this.#totals.size >= MAX_CACHED) this.#totals.clear();
      const row = this.#sum.get(scope) as Amount;
      total = { tokens: row.tokens, usd: row.usd };
      this.#totals.set(scope, total);
    }
    return total;
  }

  /** Records a reservation (committed before it returns) and counts it in every scope of the call. */
  reserve(record: CallRecord, worst: Amount): void {
    for (const scope of record.scopes) this.total(scope);
    this.#reserve(record, worst);
    this.#add(record.scopes, worst.tokens, worst.usd);
  }

  /** Copies the write-ahead log into the database once it has grown, off the call's path (after its settlement). */
  #checkpointSoon(): void {
    this.#writes += 1;
    if (this.#writes < CHECKPOINT_EVERY || this.#checkpointing) return;
    this.#checkpointing = setImmediate(() => {
      this.#checkpointing = undefined;
      this.#writes = 0;
      if (this.#db.open) this.#db.pragma('wal_checkpoint(PASSIVE)');
    });
  }

  /** Replaces a reservation with what the call really cost. */
  settle(record: CallRecord, reserved: Amount, actual: Settlement): void {
    const changed = this.#settle.run(
      actual.tokens,
      actual.usd,
      actual.input,
      actual.output,
      actual.cacheRead,
      actual.cacheWrite,
      actual.estimated ? 1 : 0,
      record.id,
    ).changes;
    if (changed > 0) this.#add(record.scopes, actual.tokens - reserved.tokens, actual.usd - reserved.usd);
    this.#checkpointSoon();
  }

  #add(scopes: readonly string[], tokens: number, usd: number): void {
    for (const scope of scopes) {
      const total = this.#totals.get(scope);
      if (!total) continue;
      total.tokens += tokens;
      total.usd += usd;
    }
  }

  /** Forgets cached totals of past days (their keys carry the day), keeping memory bounded. */
  forgetCached(): void {
    this.#totals.clear();
  }

  pause(session: string, at: number, reason: string): void {
    this.#db.prepare('INSERT OR REPLACE INTO paused (session, at, reason) VALUES (?, ?, ?)').run(session, at, reason);
  }

  resume(session: string): boolean {
    return this.#db.prepare('DELETE FROM paused WHERE session = ?').run(session).changes > 0;
  }

  paused(): Array<{ session: string; at: number; reason: string }> {
    return this.#db.prepare('SELECT session, at, reason FROM paused ORDER BY at').all() as Array<{ session: string; at: number; reason: string }>;
  }

  /** Whether a warning for this cap and scope was already given; records it when not. */
  warnOnce(scope: string, limitKey: string): boolean {
    return this.#db.prepare('INSERT OR IGNORE INTO warned (scope, limit_key) VALUES (?, ?)').run(scope, limitKey).changes > 0;
  }

  /** Spend grouped by day, agent, session, model and kind since a day (inclusive). */
  usage(sinceDay: string): UsageRow[] {
    return this.#db
      .prepare(
        `SELECT day, agent, session, model, kind, COUNT(*) AS calls, SUM(tokens) AS tokens, SUM(usd) AS usd, SUM(estimated) AS estimated
         FROM calls WHERE day >= ? GROUP BY day, agent, session, model, kind ORDER BY day`,
      )
      .all(sinceDay) as UsageRow[];
  }

  close(): void {
    if (this.#checkpointing) clearImmediate(this.#checkpointing);
    this.#checkpointing = undefined;
    if (this.#db.open && !this.#db.readonly) this.#db.pragma('wal_checkpoint(TRUNCATE)');
    this.#db.close();
  }
}
