// RSS of a real gateway child whose turns go through the real agent runtime and a
// provider (the fake OpenAI server on loopback, one tool call every 4th turn), printed
// every 1,000 turns; sessions are reused (`--sessions`, default 200) or, with
// `--fresh`, every turn opens a new one (webhooks and cron runs do that). Prints one
// JSON object; the figure to watch is the growth per turn after the first thousand.
// What grows, found with heap snapshots and process.memoryUsage() after a forced GC: this soak runs
// 20,000 turns in ~90 s, so the gateway's 5-minute windows (the RPC idempotency cache and the inbound
// journal's dedupe memory) still hold every turn when it ends — about 1 KB of live heap per turn,
// bounded by time, not by turns. With both windows at 5 s the live heap stays within ~3 MB from 2,000
// to 20,000 turns.
// Run after `npm run build`: npx tsx bench/rss-agent-turns.ts [--turns 10000] [--sessions 200] [--fresh]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GatewayClient } from '../source/client/index.js';
import { startFakeOpenAI } from '../test/support/fake-openai-server.js';

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1]! : fallback;
};
const TURNS = Number(arg('--turns', '10000'));
const SESSIONS = Number(arg('--sessions', '200'));
const FRESH = process.argv.includes('--fresh');
const BATCH = 50;
const root = join(import.meta.dirname, '..');

const llm = await startFakeOpenAI();
let calls = 0;
llm.setDefault((request) => {
  calls += 1;
  const messages = request.body.messages as Array<{ role: string }>;
  const last = messages.at(-1)?.role;
  if (calls % 4 === 0 && last === 'user') return { toolCalls: [{ name: 'memory_search', arguments: { query: 'notes' } }] };
  return { text: `answer ${calls} ${'lorem ipsum '.repeat(20)}`, usage: { input: 500, output: 60 } };
});
const stateDir = mkdtempSync(join(tmpdir(), 'claw-bench-agent-rss-'));
writeFileSync(
  join(stateDir, 'claw.json'),
  JSON.stringify({
    models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {} } } } },
    agents: { defaults: { model: 'fake/m' } },
  }),
);
const child = spawn(process.execPath, [join(root, 'dist', 'cli', 'claw.cjs'), 'gateway', 'run', '--port', '0'], {
  env: { ...process.env, CLAW_STATE_DIR: stateDir },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const rssMb = (pid: number): number => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 102.4) / 10;

let info: { port: number; pid: number } | undefined;
for (let i = 0; i < 600 && !info; i++) {
  try {
    info = JSON.parse(readFileSync(join(stateDir, 'gateway.json'), 'utf8'));
  } catch {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
await new Promise((resolve) => setTimeout(resolve, 500));
const token = readFileSync(join(stateDir, 'credentials', 'gateway-token'), 'utf8').trim();
const client = new GatewayClient({ url: `ws://127.0.0.1:${info!.port}`, token, clientName: 'bench', requestTimeoutMs: 120_000 });
await client.connect();
// A reply can arrive before the acknowledgement of its message: remember both sides.
const pending = new Map<string, () => void>();
const ended = new Set<string>();
client.on('chat', (payload) => {
  if (payload.state !== 'final' && payload.state !== 'error') return;
  ended.add(payload.runId);
  pending.get(payload.runId)?.();
});
const checkpoints: Array<{ turns: number; rssMb: number }> = [{ turns: 0, rssMb: rssMb(info!.pid) }];
const started = Date.now();
for (let turn = 0; turn < TURNS; turn += BATCH) {
  await Promise.all(
    Array.from({ length: BATCH }, async (_, i) => {
      const n = turn + i;
      const session = FRESH ? `agent:main:bench:direct:f${n}` : `agent:main:bench:direct:s${n % SESSIONS}`;
      const { runId } = await client.request('chat.send', { sessionKey: session, text: `question ${n}`, idempotencyKey: `q${n}` });
      if (!ended.has(runId)) await new Promise<void>((resolve) => pending.set(runId, resolve));
      pending.delete(runId);
      ended.delete(runId);
    }),
  );
  if ((turn + BATCH) % 1000 === 0) {
    checkpoints.push({ turns: turn + BATCH, rssMb: rssMb(info!.pid) });
    process.stderr.write(`${turn + BATCH} turns: ${checkpoints.at(-1)!.rssMb} MB\n`);
  }
}
const first = checkpoints.find((c) => c.turns >= 1000) ?? checkpoints[0]!;
const last = checkpoints.at(-1)!;
client.close();
child.kill('SIGTERM');
await new Promise((resolve) => child.once('exit', resolve));
await llm.close();
rmSync(stateDir, { recursive: true, force: true });
process.stdout.write(
  `${JSON.stringify({
    bench: 'rss-agent-turns',
    turns: TURNS,
    sessions: FRESH ? 'fresh per turn' : SESSIONS,
    seconds: Math.round((Date.now() - started) / 1000),
    checkpoints,
    kbPerTurnAfterFirstThousand: Math.round((((last.rssMb - first.rssMb) * 1024) / Math.max(1, last.turns - first.turns)) * 100) / 100,
    targetMb: 150,
  })}\n`,
);
