// Builds dist/ when it is missing or older than any source file, so `npm start`
// on a fresh clone works and a warm start costs only a directory walk.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
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
const inputs = () =>
  Math.max(
    newestMtime(join(root, 'source')),
    ...['build.mjs', 'commonjs-bundles.mjs', 'help-text.mjs', 'simple-text-width.mjs', 'ensure-build.mjs'].map(
      (f) => statSync(join(root, 'scripts', f)).mtimeMs,
    ),
    statSync(join(root, 'package.json')).mtimeMs,
  );
const stale = force || !existsSync(entry) || inputs() > statSync(entry).mtimeMs;
if (stale) {
  let build;
  try {
    ({ build } = await import('./build.mjs'));
  } catch (error) {
    console.error(`claw: cannot load the build (${error.message}). Run \`npm ci\`: building needs the dev dependencies (esbuild).`);
    process.exit(1);
  }
  try {
    await build();
  } catch (error) {
    console.error(`claw: the build failed: ${error.message}`);
    process.exit(1);
  }
}
