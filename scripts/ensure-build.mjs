// Builds dist/ when it is missing or older than any source file, so `npm start`
// on a fresh clone works and a warm start costs only a directory walk.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const force = process.argv.includes('--force');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path));
    else newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

const entry = join(root, 'dist', 'cli', 'main.js');
const stale = force || !existsSync(entry) || newestMtime(join(root, 'source')) > statSync(entry).mtimeMs;
if (stale) {
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('claw: the TypeScript build failed (see above). Run `npm ci` if dependencies are missing.');
    process.exit(result.status ?? 1);
  }
}
