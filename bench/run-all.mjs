// Runs every bench script, one after another (they measure ratios inside one
// run, so running two at once would disturb both), and prints one JSON object:
// each bench's own JSON, or why it failed, with its wall time.
// Usage: npm run bench [-- --quick] [-- --only=tui,memory]
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const args = process.argv.slice(2);
const only = args
  .find((a) => a.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const passed = args.filter((a) => !a.startsWith('--only='));
const names = readdirSync(dir)
  .filter((f) => /\.(mjs|ts)$/.test(f) && f !== 'run-all.mjs' && !f.endsWith('-support.mjs'))
  .filter((f) => !only || only.includes(basename(f, extname(f))))
  .sort();

/** The last line of a bench's output that parses as a JSON object (benches may log progress before it). */
function lastJson(text) {
  const start = text.lastIndexOf('\n{');
  for (const candidate of [text.slice(start + 1), text]) {
    try {
      const value = JSON.parse(candidate.trim());
      if (value && typeof value === 'object') return value;
    } catch {
      // Not the whole tail: try the whole output next.
    }
  }
  return undefined;
}

const results = {};
for (const file of names) {
  const name = basename(file, extname(file));
  process.stderr.write(`bench ${name}…\n`);
  const started = Date.now();
  // tsx runs both the .ts benches and the .mjs ones that import source/ directly.
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', join(dir, file), ...passed], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  const result = run.status === 0 ? lastJson(run.stdout) : undefined;
  results[name] = result
    ? { ok: true, seconds, result }
    : { ok: false, seconds, error: (run.stderr || run.stdout || `exit ${run.status ?? run.signal}`).trim().split('\n').slice(-5).join('\n') };
}
process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
process.exitCode = Object.values(results).every((r) => r.ok) ? 0 : 1;
