// Search figures from issue 15: sessions.search over 10,000 messages in 100
// sessions (a third of them Chinese), SQLite FTS5 (trigram, what the gateway
// uses) against flexsearch 0.8 (in memory, CJK split by a custom encoder) on
// the same corpus and queries. Prints one JSON object.
// Usage: npm run build && node bench/tui-search.mjs [--quick]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import flexsearch from 'flexsearch';
import { sessionsSearchHandler, TranscriptSearchIndex } from '../dist/sessions/search/index.js';

const quick = process.argv.includes('--quick');
const SESSIONS = 100;
const PER_SESSION = 100;
const ms = (start) => Number(process.hrtime.bigint() - start) / 1e6;
const round = (n, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

let seed = 42;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const pick = (xs) => xs[Math.floor(rand() * xs.length)];
const EN = 'deploy server config backup quarterly report invoice budget meeting travel flight hotel kernel docker python rust latency memory index search garden recipe tomato weekend family doctor appointment invoice refund contract lawyer'.split(' ');
const ZH = ['投资', '目标', '长期', '增长', '会议', '报告', '预算', '旅行', '航班', '酒店', '服务器', '备份', '配置', '医生', '预约', '家庭', '周末', '花园', '食谱', '合同'];
const sentence = (zh) => (zh ? Array.from({ length: 8 + Math.floor(rand() * 12) }, () => pick(ZH)).join('') + '。' : Array.from({ length: 10 + Math.floor(rand() * 25) }, () => pick(EN)).join(' ') + '.');

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
      lines.push(JSON.stringify(m % 2 === 0
        ? { type: 'message', role: 'user', id, parentId: null, timestamp: s * 1e6 + m, content: text }
        : { type: 'message', role: 'assistant', id, parentId: null, timestamp: s * 1e6 + m, content: [{ type: 'text', text }] }));
      docs.push({ key, id, text });
    }
    writeFileSync(join(sessionsDir, `${sessionId}.jsonl`), `${lines.join('\n')}\n`);
    list.push({ key, agentId: 'main', entry: { sessionId } });
  }
  const sessions = { list: () => list, transcriptPath: (_agent, id) => join(sessionsDir, `${id}.jsonl`) };
  const queries = [...EN.slice(0, 15), ...ZH.slice(0, 10), '投资目标', '服务器备份', 'quarterly report', 'docker latency', 'flight hotel weekend'];
  const rounds = quick ? 3 : 10;

  // FTS5: cold build, then the RPC handler as the gateway runs it (catch-up stat of 100 files + query + snippets).
  let start = process.hrtime.bigint();
  const cold = new TranscriptSearchIndex(join(dir, 'cold.sqlite'));
  cold.sync(list.map(({ key, entry }) => ({ sessionKey: key, agentId: 'main', sessionId: entry.sessionId, file: sessions.transcriptPath('main', entry.sessionId) })));
  const ftsBuildMs = ms(start);
  cold.close();
  const handler = sessionsSearchHandler({ sessions, indexPath: join(dir, 'search.sqlite') });
  handler({ query: 'warm up' });
  const fts = [];
  let ftsHits = 0;
  for (let r = 0; r < rounds; r++) for (const query of queries) {
    start = process.hrtime.bigint();
    ftsHits += handler({ query, limit: 20 }).hits.length;
    fts.push(ms(start));
  }
  handler.close();
  start = process.hrtime.bigint();
  const reopened = sessionsSearchHandler({ sessions, indexPath: join(dir, 'search.sqlite') });
  reopened({ query: 'budget' });
  const ftsReopenMs = ms(start);
  reopened.close();

  // flexsearch: in memory, so a gateway restart rebuilds it from every transcript.
  const encoder = new flexsearch.Encoder({ prepare: (s) => s.replace(/([\u3000-\u9fff])/g, ' $1 '), normalize: true, dedupe: false });
  start = process.hrtime.bigint();
  const index = new flexsearch.Index({ tokenize: 'forward', encoder });
  docs.forEach((doc, i) => index.add(i, doc.text));
  const flexBuildMs = ms(start);
  const flex = [];
  let flexHits = 0;
  for (let r = 0; r < rounds; r++) for (const query of queries) {
    start = process.hrtime.bigint();
    const ids = index.search(query, { limit: 20 });
    // The same work the handler does after the lookup: a snippet per hit.
    for (const i of ids) docs[i].text.toLowerCase().indexOf(query.split(' ')[0]);
    flexHits += ids.length;
    flex.push(ms(start));
  }
  console.log(JSON.stringify({
    bench: 'tui-search',
    loadavg1: round(loadavg()[0], 2),
    corpus: { sessions: SESSIONS, messages: docs.length, chinese_sessions: Math.ceil(SESSIONS / 3), queries: queries.length * rounds },
    fts5_handler_ms: { p50: round(pct(fts, 0.5)), p95: round(pct(fts, 0.95)), max: round(Math.max(...fts)), target_p95: 30, hits: ftsHits },
    fts5_build_ms: round(ftsBuildMs, 1),
    fts5_reopen_first_query_ms: round(ftsReopenMs, 1),
    flexsearch_query_ms: { p50: round(pct(flex, 0.5)), p95: round(pct(flex, 0.95)), max: round(Math.max(...flex)), hits: flexHits },
    flexsearch_build_ms: round(flexBuildMs, 1),
    flexsearch_rss_note: 'in memory: rebuilt from every transcript at each gateway start',
  }));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
