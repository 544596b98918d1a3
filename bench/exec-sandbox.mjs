// Exec overhead of the bubblewrap sandbox vs a bare execa of `true` (p50/p95),
// and the cost of the approval check per plan (parse + bind + authorize).
// Run after `npm run build`: node bench/exec-sandbox.mjs
import { execa } from 'execa';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authorizeExec, bindPlan, bubblewrapArgs, hiddenPaths, parseCommand, planCommands, probeSandbox, resolveExecutable } from '../dist/tools/index.js';
import { DEFAULT_SECRET_PATHS } from '../dist/config/index.js';

const N = Number(process.env.BENCH_N ?? 200);
const state = mkdtempSync(join(tmpdir(), 'claw-bench-sandbox-'));
const ws = join(state, 'workspace');
mkdirSync(ws, { recursive: true });
writeFileSync(join(ws, 'notes.txt'), 'a\n');
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
const truePath = resolveExecutable('true', ws, env.PATH);
const status = probeSandbox();

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function sample(fn) {
  for (let i = 0; i < 10; i += 1) await fn();
  const times = [];
  for (let i = 0; i < N; i += 1) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { p50: +percentile(times, 50).toFixed(3), p95: +percentile(times, 95).toFixed(3) };
}

const bare = await sample(() => execa(truePath, [], { cwd: ws, env, extendEnv: false, reject: false }));
let sandboxed;
if (status.kind === 'bubblewrap') {
  const policy = { writable: [ws], hidden: hiddenPaths(state, DEFAULT_SECRET_PATHS), network: false };
  sandboxed = await sample(() => {
    const wrapped = bubblewrapArgs(status.path, policy, ws, truePath, []);
    return execa(wrapped.file, wrapped.args, { cwd: ws, env, extendEnv: false, reject: false });
  });
}

const approvals = {
  version: 1,
  security: 'allowlist',
  ask: 'on-miss',
  safeList: true,
  agents: { main: { rules: [{ executable: resolveExecutable('git', ws, env.PATH) ?? '/usr/bin/git', args: ['status'], cwd: ws }] } },
};
const plans = [
  'ls -la',
  'cat notes.txt | sort -r | head -n 5',
  'git status',
  'sort --comp=sh notes.txt',
  'grep -rn TODO . && echo done > out.txt',
  'echo "$HOME" | tr a-z A-Z',
];
const M = 20_000;
const t = performance.now();
for (let i = 0; i < M; i += 1) {
  const text = plans[i % plans.length];
  const plan = parseCommand(text);
  const executables = plan.shellRequired ? [] : planCommands(plan).map((c) => resolveExecutable(c.argv[0], ws, env.PATH));
  const bound = bindPlan({ plan, executables, cwd: ws, env: {}, network: false, roots: [ws] });
  authorizeExec({ plan: bound, agentId: 'main', approvals, sessionApproved: false, sandboxed: true, roots: [ws] });
}
const checkUs = ((performance.now() - t) * 1000) / M;
rmSync(state, { recursive: true, force: true });

console.log(
  JSON.stringify({
    runs: N,
    sandbox: status.kind === 'bubblewrap' ? status.path : `none: ${status.reason}`,
    bareExecaMs: bare,
    bubblewrapMs: sandboxed ?? null,
    addedMs: sandboxed ? { p50: +(sandboxed.p50 - bare.p50).toFixed(3), p95: +(sandboxed.p95 - bare.p95).toFixed(3) } : null,
    approvalCheckUsPerPlan: +checkUs.toFixed(2),
  }),
);
