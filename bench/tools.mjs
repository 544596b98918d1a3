// exec overhead of claw's plan runner vs a bare execa of `true`, and plan parsing throughput.
import { execa } from 'execa';
import { parseCommand, PlanRun, resolveExecutable } from '../dist/tools/index.js';

const N = 200;
const truePath = resolveExecutable('true', process.cwd(), process.env.PATH);
const env = { PATH: process.env.PATH ?? '' };
async function bare() {
  await execa(truePath, [], { env, extendEnv: false, reject: false });
}
async function planned() {
  const plan = parseCommand('true');
  const executables = [resolveExecutable('true', process.cwd(), env.PATH)];
  await new PlanRun(plan, { cwd: process.cwd(), env, executables, timeoutMs: 10_000, maxOutputChars: 200_000 }).result;
}
async function time(fn) {
  const t = performance.now();
  for (let i = 0; i < N; i += 1) await fn();
  return (performance.now() - t) / N;
}
await time(bare);
await time(planned);
const bareMs = await time(bare);
const planMs = await time(planned);
const text = 'git log --oneline -n 20 | grep \'fix\' && echo "done" > out.txt; ls -la /tmp 2>&1 | wc -l';
const P = 100_000;
const t = performance.now();
for (let i = 0; i < P; i += 1) parseCommand(text);
const parseMs = performance.now() - t;
console.log(
  JSON.stringify({
    bareExecaMs: +bareMs.toFixed(3),
    planRunMs: +planMs.toFixed(3),
    addedMs: +(planMs - bareMs).toFixed(3),
    planParsesPerSec: Math.round(P / (parseMs / 1000)),
  }),
);
