// Gateway overhead of one agent turn, excluding model time, with a 150,000-char
// bootstrap and a 500-message history; and the time from the provider's first
// byte to the first `chat` delta at a client. Prints one JSON object.
// Run after `npm run build`: node bench/turn.mjs
import { createServer } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { AgentRuntime, bootstrapFileNames } from '../dist/agent/index.js';
import { loadConfig, statePaths, writeRawConfig } from '../dist/config/index.js';
import { agentTurnRunner } from '../dist/gateway/agent-turn-runner.js';
import { GatewayClient, GatewayServer, ensureGatewayTokenSync, sessionsModule, silentLogger } from '../dist/gateway/index.js';
import { createProviders } from '../dist/providers/index.js';
import { SessionRegistry } from '../dist/sessions/index.js';
import { ToolRegistry } from '../dist/tools/index.js';

const TURNS = Number(process.env.BENCH_TURNS ?? 40);
const WARMUP = 5;
const HISTORY = 500;
const KEY = 'agent:main:main';

/** An OpenAI-compatible server that answers at once and notes when it wrote. */
function startInstantModel() {
  const marks = { received: 0, firstByte: 0, ended: 0 };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      marks.received = performance.now();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta, finish) =>
        `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      marks.firstByte = performance.now();
      res.write(chunk({ role: 'assistant', content: 'Hello' }, null));
      res.write(chunk({ content: ' there.' }, null));
      res.write(chunk({}, 'stop'));
      res.write(
        `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', model: 'm', choices: [], usage: { prompt_tokens: 40000, completion_tokens: 3 } })}\n\n`,
      );
      res.end('data: [DONE]\n\n');
      marks.ended = performance.now();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, marks, port: server.address().port })));
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const round = (n) => Math.round(n * 1000) / 1000;

const dir = mkdtempSync(join(tmpdir(), 'claw-bench-turn-'));
const paths = statePaths(dir);
const model = await startInstantModel();
writeRawConfig(paths.config, {
  models: { providers: { fake: { api: 'openai', baseUrl: `http://127.0.0.1:${model.port}/v1`, models: { m: { contextWindow: 200000 } } } } },
  agents: { defaults: { model: 'fake/m' } },
});
const config = loadConfig(paths.config);

const workspace = paths.workspace('main');
mkdirSync(workspace, { recursive: true });
for (const name of bootstrapFileNames) writeFileSync(join(workspace, name), `# ${name}\n${'Practical guidance for the agent. '.repeat(600)}`);

const seed = new SessionRegistry({ paths, config });
const session = await seed.open(KEY);
for (let i = 0; i < HISTORY / 2; i += 1) {
  session.append(
    { type: 'message', role: 'user', content: `question ${i}: ${'some context '.repeat(10)}` },
    { type: 'message', role: 'assistant', content: [{ type: 'text', text: `answer ${i}: ${'a considered reply '.repeat(10)}` }], stopReason: 'stop' },
  );
}
await seed.close();

const providers = createProviders({ config, paths, env: {} });
const runtime = new AgentRuntime({
  config,
  paths,
  providers,
  registry: new ToolRegistry(),
  approvals: () => ({ request: async () => ({ id: 'none', approved: false, status: 'denied' }), approvedForSession: () => false }),
  now: Date.now,
});
const report = runtime.contextReport({ agentId: 'main', kind: 'main', channel: 'tui', model: undefined });
const token = ensureGatewayTokenSync(paths, {});
const server = new GatewayServer({
  config,
  paths,
  port: 0,
  bind: '127.0.0.1',
  token,
  log: silentLogger,
  modules: [sessionsModule({ runner: agentTurnRunner(runtime) })],
});
const port = await server.start();
const client = new GatewayClient({ url: `ws://127.0.0.1:${port}`, token, clientName: 'bench' });
await client.connect();

let waiting;
client.on('chat', (payload) => {
  if (!waiting) return;
  if (payload.state === 'delta' && waiting.firstDelta === 0) waiting.firstDelta = performance.now();
  if (payload.state !== 'delta') waiting.resolve(payload);
});

const overhead = [];
const firstDelta = [];
for (let i = 0; i < WARMUP + TURNS; i += 1) {
  const started = performance.now();
  const done = new Promise((resolve) => {
    waiting = { resolve, firstDelta: 0 };
  });
  await client.request('chat.send', { sessionKey: KEY, text: `bench message ${i}` });
  const end = await done;
  const finished = performance.now();
  if (end.state !== 'final') throw new Error(`turn ${i} ended with ${JSON.stringify(end)}`);
  if (i < WARMUP) continue;
  overhead.push(finished - started - (model.marks.ended - model.marks.received));
  firstDelta.push(waiting.firstDelta - model.marks.firstByte);
}

const context = await report;
client.close();
await server.stop('bench finished');
model.server.close();
rmSync(dir, { recursive: true, force: true });

console.log(
  JSON.stringify({
    bench: 'turn',
    turns: TURNS,
    historyMessages: HISTORY,
    bootstrapInjectedChars: context.bootstrap.reduce((sum, f) => sum + f.injectedChars, 0),
    systemPromptChars: context.systemPromptChars,
    turnOverheadMs: { median: round(percentile(overhead, 50)), p95: round(percentile(overhead, 95)), target: 5 },
    firstByteToClientDeltaMs: { median: round(percentile(firstDelta, 50)), p95: round(percentile(firstDelta, 95)), target: 2 },
  }),
);
