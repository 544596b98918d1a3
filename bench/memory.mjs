// Memory index: build time for 10k chunks (embedding time excluded), keyword and
// hybrid query latency at 10k and 100k chunks (overall and per query kind: Latin
// words, Chinese questions, mixed-script questions, identifiers), incremental
// reindex after one edit, and the FTS tokenizer comparison (porter unicode61 +
// CJK bigrams vs trigram).
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
const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick = (list) => list[Math.floor(rand() * list.length)];
const syllables = ['ka', 'lo', 'mi', 'ter', 'van', 'sol', 'dru', 'pel', 'ix', 'or', 'ben', 'tua', 'rim', 'sha', 'gor', 'nel'];
const vocab = Array.from({ length: 4000 }, () => Array.from({ length: 2 + Math.floor(rand() * 3) }, () => pick(syllables)).join(''));
const cjk = ['投资目标', '监控系统', '数据库迁移', '会议纪要', '财务自由', '服务器', '部署流程', '备份策略'];
// Chinese is written without spaces: notes hold sentences of words, and questions share only some of them.
const han = Array.from(
  '的一是在人有我他这中大来上国到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共风战干接它许八特觉望直服毛林题建南度统色字请交爱让认算论百吃义科怎元社术结六功指思非流每青管夫连远资队跑茶湖朋友周末喝',
);
const cjkVocab = Array.from({ length: 800 }, () => Array.from({ length: 2 + Math.floor(rand() * 2) }, () => pick(han)).join(''));
const hosts = Array.from({ length: 500 }, (_, i) => `srv-${100 + i}.prod.internal`);

function chineseSentence() {
  return `${Array.from({ length: 6 + Math.floor(rand() * 8) }, () => pick(cjkVocab)).join('')}。`;
}

function section(k, host) {
  const words = [];
  for (let i = 0; i < 150; i++) words.push(rand() < 0.01 ? pick(cjk) : pick(vocab));
  const lines = [];
  for (let i = 0; i < words.length; i += 12) lines.push(rand() < 0.15 ? chineseSentence() : words.slice(i, i + 12).join(' '));
  if (host) lines.push(`Runs on ${host}.`);
  return `## Section ${k}\n\n${lines.join('\n')}\n`;
}

/** A query of each kind in turn: what a person asks, not only words copied from a note. */
const queryKinds = {
  latin: () => `what is the ${pick(vocab)} ${pick(vocab)}`,
  chineseQuestion: () => `${pick(cjkVocab)}和${pick(cjkVocab)}${pick(cjkVocab)}是什么？`,
  mixed: () => `${pick(vocab)}的${pick(cjkVocab)}在哪里`,
  identifier: () => pick(hosts),
};

function writeCorpus(workspace, files, sectionsPerFile) {
  mkdirSync(join(workspace, 'memory'), { recursive: true });
  for (let f = 0; f < files; f++) {
    const body = Array.from({ length: sectionsPerFile }, (_, k) => section(k, k === 0 ? hosts[f % hosts.length] : undefined)).join('\n');
    writeFileSync(join(workspace, 'memory', `notes-${String(f).padStart(5, '0')}.md`), `# Notes ${f}\n\n${body}`);
  }
}

function fnv(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** A local deterministic provider; its own time is measured and subtracted. */
function localProvider() {
  const provider = {
    label: 'bench-local',
    model: `bench-${DIMS}`,
    embedMs: 0,
    async embed(texts) {
      const t = performance.now();
      const out = texts.map((text) => {
        const v = new Float32Array(DIMS);
        for (const w of text.toLowerCase().split(/\s+/))
          if (w) {
            const h = fnv(w);
            v[h % DIMS] += h & 1 ? 1 : -1;
          }
        let n = 0;
        for (const x of v) n += x * x;
        n = Math.sqrt(n) || 1;
        for (let i = 0; i < DIMS; i++) v[i] /= n;
        return v;
      });
      provider.embedMs += performance.now() - t;
      return out;
    },
  };
  return provider;
}

// CPU time of this process: on a shared, busy machine wall time mostly measures the other processes.
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
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
    let c = cpuMs();
    const stats = await index.sync();
    const buildMs = performance.now() - t - provider.embedMs;
    const buildCpuMs = cpuMs() - c - provider.embedMs;
    const embedMs = provider.embedMs;
    const keywordIndex = new MemoryIndex({ agentId: 'main', config, paths, provider: null });
    const kw = [];
    const hy = [];
    const kwCpu = [];
    const hyCpu = [];
    const kinds = Object.keys(queryKinds);
    const perKind = Object.fromEntries(kinds.map((kind) => [kind, { keyword: [], hybrid: [], found: 0 }]));
    // Warm the statement cache and the page cache, as a running gateway would be.
    for (let i = 0; i < 10; i++) {
      await keywordIndex.search({ query: queryKinds.latin() });
      await index.search({ query: queryKinds.latin() });
    }
    for (let i = 0; i < QUERIES; i++) {
      const kind = kinds[i % kinds.length];
      const query = queryKinds[kind]();
      c = cpuMs();
      t = performance.now();
      const found = await keywordIndex.search({ query });
      const k = performance.now() - t;
      kwCpu.push(cpuMs() - c);
      c = cpuMs();
      t = performance.now();
      await index.search({ query });
      const h = performance.now() - t;
      hyCpu.push(cpuMs() - c);
      kw.push(k);
      hy.push(h);
      perKind[kind].keyword.push(k);
      perKind[kind].hybrid.push(h);
      if (found.results.length > 0) perKind[kind].found++;
    }
    for (const list of [kw, hy, kwCpu, hyCpu]) list.sort((a, b) => a - b);
    const byKind = Object.fromEntries(
      Object.entries(perKind).map(([kind, v]) => {
        v.keyword.sort((a, b) => a - b);
        v.hybrid.sort((a, b) => a - b);
        return [kind, { keywordP95Ms: round(pct(v.keyword, 95)), hybridP95Ms: round(pct(v.hybrid, 95)), keywordFoundShare: round(v.found / v.keyword.length) }];
      }),
    );
    // Incremental: edit one file, then sync (its new chunks are embedded by the local provider).
    writeFileSync(join(paths.workspace('main'), 'memory', 'notes-00007.md'), `# Edited\n\n${section(99)}`);
    provider.embedMs = 0;
    t = performance.now();
    const incremental = await index.sync();
    const incrementalMs = performance.now() - t;
    // Files and FTS only (what a keyword-only setup builds): a forced rebuild without a provider, last because it drops the vectors.
    c = cpuMs();
    t = performance.now();
    await keywordIndex.sync({ force: true });
    const keywordBuildMs = performance.now() - t;
    const keywordBuildCpuMs = cpuMs() - c;
    const result = {
      chunks: index.status().chunks,
      files: stats.filesScanned,
      buildMsExcludingEmbedding: Math.round(buildMs),
      buildCpuMsExcludingEmbedding: Math.round(buildCpuMs),
      keywordOnlyBuildMs: Math.round(keywordBuildMs),
      keywordOnlyBuildCpuMs: Math.round(keywordBuildCpuMs),
      embedMs: Math.round(embedMs),
      keywordP50Ms: round(pct(kw, 50)),
      keywordP95Ms: round(pct(kw, 95)),
      hybridP50Ms: round(pct(hy, 50)),
      hybridP95Ms: round(pct(hy, 95)),
      keywordCpuP95Ms: round(pct(kwCpu, 95)),
      hybridCpuP95Ms: round(pct(hyCpu, 95)),
      byKind,
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
  const segment = (text) =>
    text.replace(/[\p{Script=Han}]+/gu, (run) => {
      const c = Array.from(run);
      return ` ${(c.length < 2 ? c : c.slice(0, -1).map((x, i) => x + c[i + 1])).join(' ')} `;
    });
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
      t = performance.now();
      q.all(query);
      times.push(performance.now() - t);
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
console.log(
  JSON.stringify(
    {
      dims: DIMS,
      loadAverage: (await import('node:os')).loadavg().map((x) => Math.round(x * 10) / 10),
      queries: QUERIES,
      at10k: small,
      ...(large ? { at100k: large } : {}),
      tokenizers: compareTokenizers(texts),
      targets: { buildMs10k: 2_000, keywordP95Ms10k: 5, hybridP95Ms10k: 10, incrementalMs: 200 },
    },
    null,
    2,
  ),
);
