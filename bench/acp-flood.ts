// An external agent flooding its child session: `status` RPC round trips over
// the WebSocket while an ACP agent streams 60,000 updates (a second client
// listens to every event, as the TUI does), against the same gateway quiet.
// The target: status p99 ≤ 20 ms during the flood.
// Run: npx tsx bench/acp-flood.ts [--updates=60000] — prints one JSON object.
import { join } from 'node:path';
import { startFakeOpenAI } from '../test/support/fake-openai-server.js';
import { startTestGateway } from '../test/support/gateway-harness.js';
import { repoRoot, tsNodeArgs } from '../test/support/mcp-servers.js';

const updates = Number(process.argv.find((arg) => arg.startsWith('--updates='))?.split('=')[1] ?? 60_000);
const round = (n: number): number => Math.round(n * 100) / 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!);
  return { p50: at(0.5), p99: at(0.99), max: round(sorted.at(-1)!), calls: sorted.length };
}

const llm = await startFakeOpenAI();
llm.setDefault(() => ({ text: 'noted' }));
const gateway = await startTestGateway({
  config: {
    models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {} } } } },
    agents: { defaults: { model: 'fake/m', heartbeat: { every: '0' } } },
    acp: { agents: { flood: { command: process.execPath, args: [join(repoRoot, 'test/support/acp-launcher.mjs'), ...tsNodeArgs('acp-hostile-agent.ts')] } } },
  },
  core: {},
});
try {
  const client = await gateway.connect();
  const listener = await gateway.connect();
  let events = 0;
  listener.on('chat', () => {
    events += 1;
  });
  const sample = async (until: () => boolean, minMs: number): Promise<number[]> => {
    const samples: number[] = [];
    const start = performance.now();
    while (performance.now() - start < minMs || !until()) {
      const t = performance.now();
      await client.request('status', {});
      samples.push(performance.now() - t);
      await sleep(5);
    }
    return samples;
  };
  await sample(() => true, 300);
  const quiet = await sample(() => true, 2000);
  const parent = 'agent:main:main';
  const { runId } = await gateway.core.subagents.spawn({ parentKey: parent, task: `flood ${updates}`, runtime: 'acp', agent: 'flood', label: 'flood' });
  const started = performance.now();
  const ended = () => gateway.core.subagents.list(parent).some((n) => n.runId === runId && n.endedAt !== undefined);
  const flooding = await sample(ended, 0);
  const floodMs = performance.now() - started;
  const q = percentiles(quiet);
  const f = percentiles(flooding);
  console.log(
    JSON.stringify({
      bench: 'acp-flood',
      updates,
      floodMs: round(floodMs),
      chatEventsToListener: events,
      statusQuietMs: q,
      statusDuringFloodMs: f,
      targetP99Ms: 20,
      met: f.p99 <= 20,
    }),
  );
} finally {
  await gateway.stop();
  await llm.close();
}
