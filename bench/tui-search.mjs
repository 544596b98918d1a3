// Search figures from issue 15: sessions.search over 10,000 messages in 100
// sessions (a third of them Chinese). The gateway's handler (flexsearch 0.8, in
// memory, CJK split by its encoder) against SQLite FTS5 (trigram) on the same
// corpus and queries, with the same ranking after the lookup. Prints one JSON
// object. The vocabulary is small on purpose: every word matches thousands of
// messages, the worst case for an index.
// Usage: npm run build && node bench/tui-search.mjs [--quick]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sessionsSearchHandler } from '../dist/sessions/search/index.js';

const quick = process.argv.includes('--quick');
const SESSIONS = 100;
const PER_SESSION = 100;
const ms = (start) => Number(process.hrtime.bigint() - start) / 1e6;
const round = (n, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

let seed = 42;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick = (xs) => xs[Math.floor(rand() * xs.length)];
const EN =
  'deploy server config backup quarterly report invoice budget meeting travel flight hotel kernel docker python rust latency memory index search garden recipe tomato weekend family doctor appointment invoice refund contract lawyer'.split(
    ' ',
  );
const ZH = [
  '投资',
  '目标',
  '长期',
  '增长',
  '会议',
  '报告',
  '预算',
  '旅行',
  '航班',
  '酒店',
  '服务器',
  '备份',
  '配置',
  '医生',
  '预约',
  '家庭',
  '周末',
  '花园',
  '食谱',
  '合同',
];
const sentence = (zh) =>
  zh
    ? `${Array.from({ length: 8 + Math.floor(rand() * 12) }, () => pick(ZH)).join('')}。`
    : `${Array.from({ length: 10 + Math.floor(rand() * 25) }, () => pick(EN)).join(' ')}.`;

const dir = mkdtempSync(join(tmpdir(), 'claw-bench-search-'));
try {
  const sessionsDir = join(dir, 'agents', 'main', 'sessions');
  mkdirSync(sessionsDir, { recursive: true });
  const docs = [];
  const list = [];
  for (let s = 0; s < SESSIONS; s++) {
    const sessionId = `s${s}`;
    const key = s === 0 ? 'agent:main:main' : `agent:main:telegram:direct:${s}`;
    const lines = [JSON.stringify({ type: 'session', version: 1, id: sessionId })];
    for (let m = 0; m < PER_SESSION; m++) {
      const zh = s % 3 === 0;
      const text = sentence(zh);
      const id = `${sessionId}-e${m}`;
      lines.push(
        JSON.stringify(
          m % 2 === 0
            ? { type: 'message', role: 'user', id, parentId: null, timestamp: s * 1e6 + m, content: text }
            : { type: 'message', role: 'assistant', id, parentId: null, timestamp: s * 1e6 + m, content: [{ type: 'text', text }] },
        ),
      );
      docs.push({ key, id, text });
    }
    writeFileSync(join(sessionsDir, `${sessionId}.jsonl`), `${lines.join('\n')}\n`);
    list.push({ key, agentId: 'main', entry: { sessionId } });
  }
  const sessions = { list: () => list, transcriptPath: (_agent, id) => join(sessionsDir, `${id}.jsonl`) };
  const queries = [...EN.slice(0, 15), ...ZH.slice(0, 10), '投资目标', '服务器备份', 'quarterly report', 'docker latency', 'flight hotel weekend'];
  const rounds = quick ? 3 : 10;

  // The gateway's handler (flexsearch): cold build by the first call, then steady calls
  // (catch-up stat of 100 files + lookup + exact check + snippets).
  let start = process.hrtime.bigint();
  const handler = sessionsSearchHandler({ sessions });
  await handler({ query: 'warm up' });
  const flexBuildMs = ms(start);
  const flex = [];
  // CPU time per call as well: on a loaded machine the wall-time tail is mostly time
  // the process waited for a core, which CPU time leaves out.
  const flexCpu = [];
  const flexBy = { english: [], cjk: [] };
  let flexHits = 0;
  for (let r = 0; r < rounds; r++)
    for (const query of queries) {
      start = process.hrtime.bigint();
      const cpuStart = process.cpuUsage();
      flexHits += (await handler({ query, limit: 20 })).hits.length;
      const took = ms(start);
      const cpu = process.cpuUsage(cpuStart);
      flexCpu.push((cpu.user + cpu.system) / 1000);
      flex.push(took);
      (/[\u3000-\u9fff]/.test(query) ? flexBy.cjk : flexBy.english).push(took);
    }
  const heapMb = process.memoryUsage().heapUsed / 1048576;

  // SQLite FTS5, the alternative: trigram for substrings of 3+ characters, a second table
  // with one token per CJK character for 1-2 character Chinese words, LIKE for short Latin
  // words; the newest 200 matches ranked the same way (FTS5's bm25 over thousands of
  // matches costs far more).
  start = process.hrtime.bigint();
  const db = new Database(join(dir, 'fts5.sqlite'));
  db.pragma('journal_mode = WAL');
  db.exec("CREATE VIRTUAL TABLE bodies USING fts5(body, tokenize = 'trigram'); CREATE VIRTUAL TABLE cjk USING fts5(body, tokenize = 'unicode61');");
  const spaced = (t) => t.replace(/([\u3000-\u9fff])/g, ' $1 ');
  const insert = db.prepare('INSERT INTO bodies (rowid, body) VALUES (?, ?)');
  const insertCjk = db.prepare('INSERT INTO cjk (rowid, body) VALUES (?, ?)');
  db.transaction(() =>
    docs.forEach((doc, i) => {
      insert.run(i + 1, doc.text);
      if (/[\u3000-\u9fff]/.test(doc.text)) insertCjk.run(i + 1, spaced(doc.text));
    }),
  )();
  const ftsBuildMs = ms(start);
  const quote = (t) => `"${t.replace(/"/g, '""')}"`;
  const ftsSearch = (query) => {
    const terms = query.toLowerCase().split(/\s+/).filter(Boolean);
    const long = terms.filter((t) => [...t].length >= 3);
    const cjk = terms.filter((t) => [...t].length < 3 && /^[\u3000-\u9fff]+$/.test(t));
    const where = [];
    const params = [];
    if (long.length) {
      where.push('bodies MATCH ?');
      params.push(long.map(quote).join(' '));
    }
    if (cjk.length) {
      where.push('rowid IN (SELECT rowid FROM cjk WHERE cjk MATCH ?)');
      params.push(cjk.map((t) => quote(spaced(t).trim())).join(' '));
    }
    const rows = db.prepare(`SELECT rowid, body FROM bodies WHERE ${where.join(' AND ')} ORDER BY rowid DESC LIMIT 200`).all(...params);
    return rows
      .map((row) => ({ row, score: terms.reduce((n, t) => n + row.body.toLowerCase().split(t).length - 1, 0) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, 20);
  };
  const fts = [];
  const ftsBy = { english: [], cjk: [] };
  let ftsHits = 0;
  for (let r = 0; r < rounds; r++)
    for (const query of queries) {
      start = process.hrtime.bigint();
      ftsHits += ftsSearch(query).length;
      const took = ms(start);
      fts.push(took);
      (/[\u3000-\u9fff]/.test(query) ? ftsBy.cjk : ftsBy.english).push(took);
    }
  db.close();

  console.log(
    JSON.stringify({
      bench: 'tui-search',
      loadavg1: round(loadavg()[0], 2),
      corpus: { sessions: SESSIONS, messages: docs.length, chinese_sessions: Math.ceil(SESSIONS / 3), queries: queries.length * rounds },
      flexsearch_handler_ms: {
        p50: round(pct(flex, 0.5)),
        p95: round(pct(flex, 0.95)),
        max: round(Math.max(...flex)),
        cpu_p50: round(pct(flexCpu, 0.5)),
        cpu_p95: round(pct(flexCpu, 0.95)),
        english_p50: round(pct(flexBy.english, 0.5)),
        cjk_p50: round(pct(flexBy.cjk, 0.5)),
        target_p95: 30,
        hits: flexHits,
      },
      flexsearch_first_call_build_ms: round(flexBuildMs, 1),
      flexsearch_heap_mb: round(heapMb, 1),
      fts5_lookup_ms: {
        p50: round(pct(fts, 0.5)),
        p95: round(pct(fts, 0.95)),
        max: round(Math.max(...fts)),
        english_p50: round(pct(ftsBy.english, 0.5)),
        cjk_p50: round(pct(ftsBy.cjk, 0.5)),
        hits: ftsHits,
      },
      fts5_build_ms: round(ftsBuildMs, 1),
    }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
