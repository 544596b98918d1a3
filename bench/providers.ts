// Providers benchmark: what claw's streaming layer adds on top of the wire.
// Run: npx tsx bench/providers.ts  — prints one JSON object.
// - stream: one reply of 5,000 text deltas read as raw bytes vs through
//   streamTurn (SSE parse + JSON + events + assembly): per-delta overhead.
// - call: 200 sequential one-delta replies, raw fetch vs streamTurn: per-call overhead.
// - estimate: estimateTokens throughput on 1 MB of mixed English/CJK text.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configSchema, statePaths } from '../source/config/index.js';
import { createProviders, estimateTokens } from '../source/providers/index.js';
import { startFakeOpenAI } from '../test/support/fake-openai-server.js';

const round = (n: number): number => Math.round(n * 1000) / 1000;
const dir = mkdtempSync(join(tmpdir(), 'claw-bench-'));
const llm = await startFakeOpenAI();
try {
  const providers = createProviders({
    config: configSchema.parse({ models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {} } } } } }),
    paths: statePaths(dir),
    env: {},
  });
  const request = { model: 'fake/m', system: 'bench', messages: [{ role: 'user' as const, content: 'hi' }], tools: [], thinking: 'off' as const };
  const rawFetch = async (): Promise<void> => {
    const response = await fetch(`${llm.baseUrl}/chat/completions`, { method: 'POST', body: JSON.stringify({ ...request, stream: true }) });
    for await (const chunk of response.body ?? []) void chunk;
  };
  const viaProviders = async (): Promise<number> => {
    let deltas = 0;
    for await (const event of providers.streamTurn(request)) if (event.type === 'text_delta') deltas += 1;
    return deltas;
  };

  const deltas = 5000;
  const long = { text: 'abcdefgh'.repeat(deltas), chunkSize: 8 };
  llm.reply(long, long, long, long);
  await rawFetch();
  await viaProviders();
  let t = performance.now();
  await rawFetch();
  const rawStreamMs = performance.now() - t;
  t = performance.now();
  const counted = await viaProviders();
  const providerStreamMs = performance.now() - t;

  const calls = 200;
  llm.setDefault({ text: 'ok' });
  for (let i = 0; i < 20; i += 1) await rawFetch();
  t = performance.now();
  for (let i = 0; i < calls; i += 1) await rawFetch();
  const rawCallMs = (performance.now() - t) / calls;
  t = performance.now();
  for (let i = 0; i < calls; i += 1) await viaProviders();
  const providerCallMs = (performance.now() - t) / calls;

  const text = ('The quick brown fox jumps over the lazy dog. 投资目标很明确。').repeat(20_000);
  t = performance.now();
  const tokens = estimateTokens(text);
  const estimateMs = performance.now() - t;

  console.log(
    JSON.stringify({
      stream: {
        deltas: counted,
        rawMs: round(rawStreamMs),
        providerMs: round(providerStreamMs),
        overheadPerDeltaUs: round(((providerStreamMs - rawStreamMs) / deltas) * 1000),
        ratio: round(providerStreamMs / rawStreamMs),
      },
      call: { calls, rawMs: round(rawCallMs), providerMs: round(providerCallMs), overheadMs: round(providerCallMs - rawCallMs) },
      estimate: { chars: text.length, tokens, ms: round(estimateMs), mbPerSec: round(text.length / 1e6 / (estimateMs / 1000)) },
    }),
  );
} finally {
  await llm.close();
  rmSync(dir, { recursive: true, force: true });
}
