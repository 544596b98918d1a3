// The packages a production install (`npm ci --omit=dev`) puts in
// node_modules, worked out from package-lock.json the way npm places them:
// the closure of package.json `dependencies` over each package's
// dependencies, optional dependencies that fit this platform, and peers.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

function fits(list, value) {
  if (!list) return true;
  if (list.includes(value)) return true;
  return list.every((v) => v.startsWith('!')) && !list.includes(`!${value}`);
}

/** The lock path a `name` required from the package at lock path `from` resolves to (node's upward node_modules search). */
function resolveFrom(packages, from, name) {
  let dir = from;
  for (;;) {
    const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!dir) return undefined;
    const cut = dir.lastIndexOf('/node_modules/');
    dir = cut === -1 ? '' : dir.slice(0, cut);
  }
}

/**
 * Lock paths (e.g. `node_modules/ws`) of every package a production install
 * holds, each with its name. A required package missing from the lock is an
 * error: the lock is out of date.
 */
export function productionPackages(root) {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const packages = lock.packages;
  const found = new Map();
  const visit = (from, names, optional) => {
    for (const name of names) {
      const path = resolveFrom(packages, from, name);
      if (!path) {
        if (optional) continue;
        throw new Error(`package-lock.json has no ${name} (needed by ${from || 'claw'}): the lock is out of date; run \`npm install\``);
      }
      const entry = packages[path];
      if (found.has(path) || !fits(entry.os, process.platform) || !fits(entry.cpu, process.arch)) continue;
      found.set(path, name);
      const peers = Object.keys(entry.peerDependencies ?? {}).filter((peer) => !entry.peerDependenciesMeta?.[peer]?.optional);
      visit(path, [...Object.keys(entry.dependencies ?? {}), ...peers], false);
      visit(path, Object.keys(entry.optionalDependencies ?? {}), true);
    }
  };
  visit('', Object.keys(manifest.dependencies ?? {}), false);
  visit('', Object.keys(manifest.optionalDependencies ?? {}), true);
  return [...found].map(([path, name]) => ({ path, name })).filter((p) => existsSync(join(root, p.path)));
}
