// Context management costs, excluding model time: assembling the context of a
// 200,000-token transcript with one compaction entry, accounting its parts,
// estimator throughput, and one compaction pass with an instant summariser.
// Prints one JSON object. Run after `npm run build`: node bench/context.mjs
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { accountContext, assembleContext, compactHistory, contextThresholds, defaultContextSettings } from '../dist/agent/index.js';
import { estimateTokens } from '../dist/providers/index.js';

const TARGET_TOKENS = 200_000;
const RUNS = 50;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function time(fn, runs = RUNS) {
  fn();
  const samples = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    fn();
    samples.push(performance.now() - start);
  }
  return Number(median(samples).toFixed(3));
}

function prose(n, seed) {
  const words = ['deploy', 'the', 'service', 'on', 'host', 'with', 'config', 'and', 'check', 'logs', seed];
  return Array.from({ length: n }, (_, i) => words[(i * 7 + seed.length) % words.length]).join(' ');
}

/** A transcript of tool-using rounds until it holds about TARGET_TOKENS tokens. */
function transcript() {
  const entries = [];
  let parentId = null;
  let at = Date.now() - 86_400_000;
  let tokens = 0;
  const push = (entry) => {
    const full = { id: randomUUID(), parentId, timestamp: (at += 1000), ...entry };
    parentId = full.id;
    entries.push(full);
    return full;
  };
  for (let round = 0; tokens < TARGET_TOKENS; round += 1) {
    const ask = `Round ${round}: look at /srv/app/${round}.log on db${round}.prod.internal:5432. ${prose(60, 'ask')}`;
    push({ type: 'message', role: 'user', content: ask });
    const callId = `call_${round}`;
    push({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'toolCall', id: callId, name: 'read', arguments: { path: `/srv/app/${round}.log` } }],
      stopReason: 'toolUse',
    });
    const output = prose(300, 'out');
    push({ type: 'message', role: 'toolResult', toolCallId: callId, toolName: 'read', content: output, isError: false });
    const answer = `Round ${round} done. ${prose(80, 'ans')}`;
    push({ type: 'message', role: 'assistant', content: [{ type: 'text', text: answer }], stopReason: 'stop', usage: { input: tokens, output: 100 } });
    tokens += estimateTokens(ask) + estimateTokens(output) + estimateTokens(answer) + 30;
  }
  return { entries, tokens };
}

const { entries, tokens } = transcript();
// One compaction three quarters of the way in.
const keptIndex = Math.floor(entries.length * 0.75) - (Math.floor(entries.length * 0.75) % 4);
const withCompaction = [...entries];
withCompaction.push({
  id: randomUUID(),
  parentId: entries.at(-1).id,
  timestamp: Date.now(),
  type: 'compaction',
  summary: prose(1_500, 'sum'),
  firstKeptEntryId: entries[keptIndex].id,
  tokensBefore: tokens,
  tokensAfter: Math.round(tokens / 4),
});
// Messages after the compaction, as a session goes on.
for (let i = 0; i < 4; i += 1)
  withCompaction.push({ id: randomUUID(), parentId: null, timestamp: Date.now(), type: 'message', role: 'user', content: prose(50, 'new') });

const assembleMs = time(() => assembleContext(withCompaction));
const assembled = assembleContext(withCompaction);
const system = prose(6_000, 'sys');
const sources = (messages) => ({
  window: 200_000,
  family: 'openai',
  systemPrompt: { text: system, sections: [{ name: 'identity', chars: system.length }] },
  bootstrap: [],
  tools: Array.from({ length: 20 }, (_, i) => ({
    name: `tool${i}`,
    description: prose(30, 'tool'),
    parameters: { type: 'object', properties: { path: { type: 'string' } } },
  })),
  messages,
});
const assembleAndAccountMs = time(() => accountContext(sources(assembleContext(withCompaction).messages)));
const accountFullHistoryMs = time(() => accountContext(sources(assembleContext(entries).messages)), 10);

// Estimator throughput on mixed prose/code and on CJK text.
const latin = prose(2_000_000, 'x'); // about 10 MB
const cjk = '上下文窗口管理与压缩摘要保留标识符'.repeat(200_000);
const latinMs = time(() => estimateTokens(latin), 5);
const cjkMs = time(() => estimateTokens(cjk), 5);
const mb = (text) => Buffer.byteLength(text) / 1_048_576;

// One compaction pass over the whole 200k history with an instant summariser: wall time minus model time.
let modelMs = 0;
let calls = 0;
const summarise = async () => {
  const start = performance.now();
  calls += 1;
  const text = `## Decisions\n- keep going\n## Open TODOs\n- none\n## Constraints\n- none\n## Pending user asks\n- none\n## Exact identifiers\n- see list`;
  modelMs += performance.now() - start;
  return text;
};
const history = assembleContext(entries).messages;
const thresholds = contextThresholds(200_000, defaultContextSettings);
const compactStart = performance.now();
const result = await compactHistory({ messages: history, fixedTokens: 8_000, window: 200_000, family: 'openai', thresholds, maxAttempts: 3, summarise });
const compactWallMs = performance.now() - compactStart;

console.log(
  JSON.stringify({
    historyTokens: tokens,
    entries: withCompaction.length,
    assembledMessages: assembled.messages.length,
    assembleMs,
    assembleAndAccountMs,
    accountFullHistoryMs,
    assembleTargetMs: 10,
    estimatorMBps: Number((mb(latin) / (latinMs / 1000)).toFixed(1)),
    estimatorCjkMBps: Number((mb(cjk) / (cjkMs / 1000)).toFixed(1)),
    compaction: {
      ok: result.ok,
      tokensBefore: result.tokensBefore,
      tokensAfter: result.ok ? result.tokensAfter : undefined,
      summariserCalls: calls,
      appendedIdentifiers: result.ok ? result.appendedIdentifiers.length : undefined,
      wallMsExcludingModel: Number((compactWallMs - modelMs).toFixed(1)),
    },
  }),
);
