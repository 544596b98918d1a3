// Memory index: build time for 10k chunks (embedding time excluded), keyword and
// hybrid query latency at 10k and 100k chunks, incremental reindex after one edit,
// and the FTS tokenizer comparison (porter unicode61 + CJK bigrams vs trigram).
// Usage: npm run build && node bench/memory.mjs [--quick | --skip-100k]
import { mkdtempSync, rmSync, writeFileSync, mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { configSchema, statePaths } from '../dist/config/index.js';
import { MemoryIndex, chunkMarkdown } from '../dist/memory/index.js';

const quick = process.argv.includes('--quick');
const skipLarge = quick || process.argv.includes('--skip-100k');
const DIMS = 384;
const QUERIES = 200;

// A seeded generator so every run indexes the same corpus.
let seed = 42;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const pick = (list) => list[Math.floor(rand() * list.length)];
const syllables = ['ka', 'lo', 'mi', 'ter', 'van', 'sol', 'dru', 'pel', 'ix', 'or', 'ben', 'tua', 'rim', 'sha', 'gor', 'nel'];
const vocab = Array.from({ length: 4000 }, () => Array.from({ length: 2 + Math.floor(rand() * 3) }, () => pick(syllables)).join(''));
const cjk = ['投资目标', '监控系统', '数据库迁移', '会议纪要', '财务自由', '服务器', '部署流程', '备份策略'];

function section(k) {
  const words = [];
  for (let i = 0; i < 150; i++) words.push(rand() < 0.01 ? pick(cjk) : pick(vocab));
  const lines = [];
  for (let i = 0; i < words.length; i += 12) lines.push(words.slice(i, i + 12).join(' '));
  return `## Section ${k}\n\n${lines.join('\n')}\n`;
}

function writeCorpus(workspace, files, sectionsPerFile) {
  mkdirSync(join(workspace, 'memory'), { recursive: true });
  for (let f = 0; f < files; f++) {
    const body = Array.from({ length: sectionsPerFile }, (_, k) => section(k)).join('\n');
    writeFileSync(join(workspace, 'memory', `notes-${String(f).padStart(5, '0')}.md`), `# Notes ${f}\n\n${body}`);
  }
}

function fnv(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) { h ^= text.charCodeAt(i); h = Math.imul(h, 0x01000193) >>> 0; }
  return h;
}

/** A local deterministic provider; its own time is measured and subtracted. */
function localProvider() {
  const provider = {
    label: 'bench-local', model: `bench-${DIMS}`, embedMs: 0,
    async embed(texts) {
      const t = performance.now();
      const out = texts.map((text) => {
        const v = new Float32Array(DIMS);
        for (const w of text.toLowerCase().split(/\s+/)) if (w) { const h = fnv(w); v[h % DIMS] += h & 1 ? 1 : -1; }
        let n = 0; for (const x of v) n += x * x; n = Math.sqrt(n) || 1;
        for (let i = 0; i < DIMS; i++) v[i] /= n;
        return v;
      });
      provider.embedMs += performance.now() - t;
      return out;
    },
  };
  return provider;
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const round = (x) => Math.round(x * 100) / 100;

async function scenario(files, sectionsPerFile) {
  const root = mkdtempSync(join(tmpdir(), 'claw-bench-memory-'));
  try {
    const paths = statePaths(root);
    const config = configSchema.parse({ memory: { embeddings: { provider: 'openai', model: `bench-${DIMS}`, batchSize: 256 } } });
    writeCorpus(paths.workspace('main'), files, sectionsPerFile);
    const provider = localProvider();
    const index = new MemoryIndex({ agentId: 'main', config, paths, provider });
    let t = performance.now();
    const stats = await index.sync();
    const buildMs = performance.now() - t - provider.embedMs;
    const embedMs = provider.embedMs;
    const keywordIndex = new MemoryIndex({ agentId: 'main', config, paths, provider: null });
    const kw = [];
    const hy = [];
    for (let i = 0; i < QUERIES; i++) {
      const query = `${pick(vocab)} ${pick(vocab)}${i % 10 === 0 ? ` ${pick(cjk)}` : ''}`;
      t = performance.now(); await keywordIndex.search({ query }); kw.push(performance.now() - t);
      t = performance.now(); await index.search({ query }); hy.push(performance.now() - t);
    }
    kw.sort((a, b) => a - b);
    hy.sort((a, b) => a - b);
    // Incremental: edit one file, then sync (its new chunks are embedded by the local provider).
    writeFileSync(join(paths.workspace('main'), 'memory', 'notes-00007.md'), `# Edited\n\n${section(99)}`);
    provider.embedMs = 0;
    t = performance.now();
    const incremental = await index.sync();
    const incrementalMs = performance.now() - t;
    const result = {
      chunks: index.status().chunks,
      files: stats.filesScanned,
      buildMsExcludingEmbedding: Math.round(buildMs),
      embedMs: Math.round(embedMs),
      keywordP50Ms: round(pct(kw, 50)), keywordP95Ms: round(pct(kw, 95)),
      hybridP50Ms: round(pct(hy, 50)), hybridP95Ms: round(pct(hy, 95)),
      incrementalReindexMs: Math.round(incrementalMs),
      incrementalFilesChanged: incremental.filesChanged,
      indexBytes: statSync(paths.memoryIndex('main')).size,
    };
    await keywordIndex.close();
    await index.close();
    return result;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** FTS tokenizer comparison on the same 10k chunk texts. */
function compareTokenizers(texts) {
  const segment = (text) => text.replace(/[\p{Script=Han}]+/gu, (run) => { const c = Array.from(run); return ' ' + (c.length < 2 ? c : c.slice(0, -1).map((x, i) => x + c[i + 1])).join(' ') + ' '; });
  const variants = {
    'porter unicode61 + CJK bigrams': { tokenize: 'porter unicode61 remove_diacritics 2', prep: segment, query: (q) => `"${segment(q).trim()}"` },
    trigram: { tokenize: 'trigram', prep: (t) => t, query: (q) => `"${q}"` },
  };
  const out = {};
  for (const [name, v] of Object.entries(variants)) {
    const db = new Database(':memory:');
    db.exec(`CREATE VIRTUAL TABLE f USING fts5(text, tokenize = '${v.tokenize}')`);
    const ins = db.prepare('INSERT INTO f(rowid, text) VALUES (?, ?)');
    let t = performance.now();
    db.transaction(() => texts.forEach((text, i) => ins.run(i + 1, v.prep(text))))();
    const buildMs = performance.now() - t;
    const q = db.prepare('SELECT rowid FROM f WHERE f MATCH ? ORDER BY bm25(f) LIMIT 24');
    const times = [];
    for (let i = 0; i < QUERIES; i++) {
      const query = `${v.query(pick(vocab))} OR ${v.query(pick(vocab))}`;
      t = performance.now(); q.all(query); times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const found = (word) => q.all(v.query(word)).length > 0;
    out[name] = {
      buildMs: Math.round(buildMs),
      queryP95Ms: round(pct(times, 95)),
      dbPages: db.pragma('page_count', { simple: true }),
      findsCjk4: found('投资目标'),
      findsCjk2: found('投资'),
      findsCjk3: found('服务器'),
    };
    db.close();
  }
  return out;
}

const small = await scenario(quick ? 100 : 1000, 10);
const large = skipLarge ? undefined : await scenario(10_000, 10);
const texts = [];
for (let f = 0; texts.length < 10_000; f++) texts.push(...chunkMarkdown(section(f), { tokens: 400, overlap: 80 }).map((c) => c.text));
console.log(JSON.stringify({
  dims: DIMS,
  loadAverage: (await import('node:os')).loadavg().map((x) => Math.round(x * 10) / 10),
  queries: QUERIES,
  at10k: small,
  ...(large ? { at100k: large } : {}),
  tokenizers: compareTokenizers(texts),
  targets: { buildMs10k: 10_000, keywordP95Ms10k: 20, hybridP95Ms10k: 40, incrementalMs: 200 },
}, null, 2));
