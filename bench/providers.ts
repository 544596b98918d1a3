// Providers benchmark: what claw's streaming layer adds on top of the wire.
// Run: npx tsx bench/providers.ts  — prints one JSON object.
// Raw and claw runs alternate; figures are medians of process CPU milliseconds.
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

  // Raw and provider runs alternate so load from other processes hits both alike; medians reported.
  const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  // CPU time of this process (fake server included, equally for both sides): steadier than
  // wall time on a machine shared with other work.
  const timeIt = async (fn: () => Promise<unknown>): Promise<number> => {
    const before = process.cpuUsage();
    await fn();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000;
  };

  const deltas = 5000;
  const long = { text: 'abcdefgh'.repeat(deltas), chunkSize: 8 };
  const rawStream: number[] = [];
  const providerStream: number[] = [];
  let counted = 0;
  for (let i = 0; i < 5; i += 1) {
    llm.reply(long, long);
    rawStream.push(await timeIt(rawFetch));
    providerStream.push(await timeIt(async () => (counted = await viaProviders())));
  }
  const rawStreamMs = median(rawStream);
  const providerStreamMs = median(providerStream);

  const calls = 200;
  llm.setDefault({ text: 'ok' });
  const rawCalls: number[] = [];
  const providerCalls: number[] = [];
  for (let i = 0; i < calls; i += 1) {
    rawCalls.push(await timeIt(rawFetch));
    providerCalls.push(await timeIt(viaProviders));
  }
  const rawCallMs = median(rawCalls);
  const providerCallMs = median(providerCalls);

  const text = 'The quick brown fox jumps over the lazy dog. 投资目标很明确。'.repeat(20_000);
  const estimates: number[] = [];
  let tokens = 0;
  for (let i = 0; i < 7; i += 1) estimates.push(await timeIt(async () => (tokens = estimateTokens(text))));
  const estimateMs = median(estimates);

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
