import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryFixture, type MemoryFixture } from './memory-fixture.js';

let fx: MemoryFixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

describe('an index written by the previous schema', () => {
  it('is rebuilt from the files: chunks get their dates and the old stale rows are gone', async () => {
    fx = memoryFixture();
    fx.write('memory/2026-11-12.md', '# Wednesday\n\nSwitched the app database to SQLite.\n');
    const path = fx.state.paths.memoryIndex('main');
    mkdirSync(dirname(path), { recursive: true });
    const old = new Database(path);
    old.exec(`
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE files (path TEXT PRIMARY KEY, abs_path TEXT NOT NULL, source TEXT NOT NULL, hash TEXT NOT NULL, mtime INTEGER NOT NULL, size INTEGER NOT NULL);
      CREATE TABLE chunks (id INTEGER PRIMARY KEY AUTOINCREMENT, path TEXT NOT NULL, source TEXT NOT NULL, start_line INTEGER NOT NULL, end_line INTEGER NOT NULL, hash TEXT NOT NULL, text TEXT NOT NULL, embedded_model TEXT);
      CREATE VIRTUAL TABLE chunks_fts USING fts5(text, tokenize = 'porter unicode61 remove_diacritics 2');
      INSERT INTO files VALUES ('memory/gone.md', '/nowhere/gone.md', 'memory', 'h', 1, 1);
      INSERT INTO chunks(path, source, start_line, end_line, hash, text) VALUES ('memory/gone.md', 'memory', 1, 1, 'h', 'a database note that no longer exists');
      INSERT INTO chunks_fts(rowid, text) VALUES (1, 'a database note that no longer exists');
      PRAGMA user_version = 1;
    `);
    old.close();

    const index = fx.open();
    await index.sync();
    const { results } = await index.search({ query: 'database now', explain: true });
    expect(results.map((hit) => hit.path)).toEqual(['memory/2026-11-12.md']);
    expect(results[0]!.explain).toMatchObject({ date: '2026-11-12', dateFrom: 'file name' });
    expect(index.store.db.pragma('user_version', { simple: true })).toBe(2);
  });
});
