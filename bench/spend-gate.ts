// What the spend gate adds to a model call, on a real SQLite ledger in a temp dir. Prints one JSON object.
//  - reserve: checking every budget that applies against the call's worst case and committing the
//    reservation (the part before the request leaves), p50/p99 per call, all caps set;
//  - settle: replacing the reservation with the reported usage (after the call), p50/p99;
//  - estimate: the input estimate alone (inside reserve) for the same request, p50, to show what the
//    check itself costs beside it;
//  - a day's worth of calls already in the ledger (--history N rows) so totals are read from a real file.
// The goal (issue 44) is reserve + settle < 0.2 ms per call.
// Run: npx tsx bench/spend-gate.ts [--calls N] [--history N]
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { configSchema } from '../source/config/index.js';
import { estimateContextTokens, SpendGate, type ResolvedModel, type ToolSchema, type TurnRequest } from '../source/providers/index.js';
import { makeTempState } from '../test/support/temp-state.js';

const arg = (name: string, fallback: number): number => {
  const value = Number(process.argv[process.argv.indexOf(name) + 1]);
  return process.argv.includes(name) && Number.isFinite(value) && value > 0 ? value : fallback;
};
const CALLS = arg('--calls', 5000);
const HISTORY = arg('--history', 20_000);

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return Number(sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!.toFixed(4));
};

const model: ResolvedModel = {
  ref: 'fake/m',
  provider: 'fake',
  id: 'm',
  api: 'openai',
  baseUrl: 'http://127.0.0.1:9',
  headers: {},
  contextWindow: 200_000,
  maxOutput: 8192,
  cost: { input: 3, output: 15 },
  reasoning: false,
  known: true,
};

// A mid-sized turn: a 24k-character system prompt, 40 messages of history, 30 tool schemas.
const tools: ToolSchema[] = Array.from({ length: 30 }, (_, i) => ({
  name: `tool_${i}`,
  description: 'Does one thing to the workspace and says what it did. '.repeat(3),
  parameters: { type: 'object', properties: { path: { type: 'string' }, text: { type: 'string' } }, required: ['path'] },
}));
const request: TurnRequest = {
  model: 'fake/m',
  system: 'You are the assistant. Follow the rules below.\n'.repeat(500),
  messages: Array.from({ length: 40 }, (_, i) =>
    i % 2 === 0
      ? { role: 'user' as const, content: `question ${i} `.repeat(40) }
      : { role: 'assistant' as const, content: [{ type: 'text' as const, text: `answer ${i} `.repeat(60) }] },
  ),
  tools,
  thinking: 'off',
};

const state = makeTempState('claw-bench-spend-');
try {
  const budgets = configSchema.parse({
    budgets: {
      turn: { maxUsd: 1e9, maxTokens: 1e12 },
      session: { maxUsd: 1e9, maxTokens: 1e12 },
      agentDaily: { usd: 1e9, tokens: 1e12 },
      agentMonthly: { usd: 1e9, tokens: 1e12 },
      globalDaily: { usd: 1e9, tokens: 1e12 },
      runaway: { callsPerMinute: 1e9, tokensPerMinute: 1e12 },
    },
  }).budgets;
  let now = Date.now();
  const gate = new SpendGate({ file: join(state.dir, 'ledger.sqlite'), budgets: () => budgets, clock: { now: () => now } });
  const resolve = (): ResolvedModel => model;
  const usage = { input: 6000, output: 300, cost: 0.0225 };
  const call = (index: number, sessions: number): void => {
    const charge = {
      agentId: 'main',
      sessionKey: `agent:main:tui:direct:s${index % sessions}`,
      sessionId: `id${index % sessions}`,
      runId: `run${index}`,
      kind: 'interactive' as const,
    };
    const ticket = gate.reserve({ ...request, charge }, resolve);
    gate.settle(ticket, usage, { streamedChars: 0, completed: true });
  };
  // Calls are seconds apart in a gateway: the event loop turns between them (and checkpoints the ledger's log).
  const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
  for (let i = 0; i < HISTORY; i += 1) {
    call(i, 200);
    if (i % 50 === 0) await turn();
  }
  const reserve: number[] = [];
  const settle: number[] = [];
  for (let i = 0; i < CALLS; i += 1) {
    now += 1000;
    const charge = {
      agentId: 'main',
      sessionKey: `agent:main:tui:direct:s${i % 200}`,
      sessionId: `id${i % 200}`,
      runId: `bench${i}`,
      kind: 'interactive' as const,
    };
    const t0 = performance.now();
    const ticket = gate.reserve({ ...request, charge }, resolve);
    const t1 = performance.now();
    gate.settle(ticket, usage, { streamedChars: 0, completed: true });
    const t2 = performance.now();
    reserve.push(t1 - t0);
    settle.push(t2 - t1);
    await turn();
  }
  const estimate: number[] = [];
  for (let i = 0; i < 1000; i += 1) {
    const t0 = performance.now();
    estimateContextTokens({ system: request.system, messages: request.messages, tools: [] }, 'openai');
    estimate.push(performance.now() - t0);
  }
  const perCall = reserve.map((r, i) => r + settle[i]!);
  gate.close();
  console.log(
    JSON.stringify(
      {
        calls: CALLS,
        historyRows: HISTORY,
        reserveMs: { p50: percentile(reserve, 50), p99: percentile(reserve, 99) },
        settleMs: { p50: percentile(settle, 50), p99: percentile(settle, 99) },
        reservePlusSettleMs: { p50: percentile(perCall, 50), p99: percentile(perCall, 99) },
        inputEstimateMs: { p50: percentile(estimate, 50) },
        goalMs: 0.2,
        met: percentile(perCall, 50) < 0.2,
      },
      null,
      2,
    ),
  );
} finally {
  state.cleanup();
}
