import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { readManifest, widenedPermissions, type PluginManifest } from './manifest.js';
import { readGrants, readLock, treeHash, writeLock, type PluginPaths } from './store.js';

export interface InstallResult {
  manifest: PluginManifest;
  /** A version was installed before (this is an update). */
  updated: boolean;
  /** Permissions the new version asks for beyond what was granted: it stays off until re-approved. */
  widened: string[];
  sha256: string;
}

const SKIPPED = new Set(['node_modules', '.git']);

function run(file: string, args: string[], cwd: string): string {
  try {
    return execFileSync(file, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000 });
  } catch (error) {
    const stderr = String((error as { stderr?: string }).stderr ?? '').trim();
    throw new Error(`${file} ${args.join(' ')} failed: ${stderr || (error as Error).message}`);
  }
}

/** The package's files in `staging`: a folder copied, a tarball unpacked, an npm spec packed first. */
function stage(source: string, cwd: string, staging: string): string {
  const path = resolve(cwd, source);
  if (existsSync(path) && statSync(path).isDirectory()) {
    cpSync(path, staging, { recursive: true, filter: (from) => !SKIPPED.has(basename(from)) || from === path });
    return path;
  }
  let tarball = path;
  if (!(existsSync(path) && /\.(tgz|tar\.gz)$/.test(path))) {
    // An npm spec (name, name@version, git URL): npm fetches and packs it; no script runs.
    const packed = mkdtempSync(join(tmpdir(), 'claw-plugin-pack-'));
    try {
      const out = run('npm', ['pack', source, '--pack-destination', packed, '--ignore-scripts', '--silent'], cwd);
      const name = out.trim().split('\n').pop() ?? '';
      tarball = join(packed, name);
      if (!name || !existsSync(tarball)) throw new Error(`npm pack ${source} produced no tarball.`);
      unpack(tarball, staging);
    } finally {
      rmSync(packed, { recursive: true, force: true });
    }
    return source;
  }
  unpack(tarball, staging);
  return path;
}

/** npm tarballs keep the package under `package/`; a plain tarball may not. */
function unpack(tarball: string, staging: string): void {
  const raw = join(staging, '.unpack');
  mkdirSync(raw);
  run('tar', ['-xzf', tarball, '-C', raw, '--no-same-owner', '--no-same-permissions'], staging);
  const top = readdirSync(raw);
  const root = top.length === 1 && statSync(join(raw, top[0] as string)).isDirectory() ? join(raw, top[0] as string) : raw;
  for (const entry of readdirSync(root)) renameSync(join(root, entry), join(staging, entry));
  rmSync(raw, { recursive: true, force: true });
}

function hasDependencies(dir: string): boolean {
  try {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    return Object.keys(pkg.dependencies ?? {}).length > 0;
  } catch {
    return false;
  }
}

/**
 * Installs (or updates) a plugin from a folder, a .tgz or an npm spec into
 * `<state>/plugins/<id>/`: its manifest is read without running it, its
 * dependencies installed with `--ignore-scripts`, and the sha256 of the whole
 * tree pinned in `plugins.lock`. Installing never enables it.
 */
export function installPlugin(paths: PluginPaths, source: string, options: { cwd?: string; now?: number } = {}): InstallResult {
  mkdirSync(paths.root, { recursive: true, mode: 0o700 });
  const staging = join(paths.root, `.staging-${randomBytes(4).toString('hex')}`);
  mkdirSync(staging);
  try {
    const from = stage(source, options.cwd ?? process.cwd(), staging);
    let manifest: PluginManifest;
    try {
      manifest = readManifest(staging);
    } catch (error) {
      // The staging folder means nothing to the user: name what they asked to install.
      throw new Error(`${source}: ${(error as Error).message.replaceAll(`${staging}/`, '').replaceAll(staging, 'the package')}`);
    }
    if (!existsSync(join(staging, manifest.entry)))
      throw new Error(`${manifest.id}: the entry ${manifest.entry} is missing from the package (build it first?).`);
    if (hasDependencies(staging))
      run('npm', ['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error'], staging);
    const target = paths.dir(manifest.id);
    const updated = existsSync(target);
    if (updated) rmSync(target, { recursive: true, force: true });
    renameSync(staging, target);
    const sha256 = treeHash(target);
    const lock = readLock(paths);
    lock[manifest.id] = { version: manifest.version, source: from, sha256, installedAt: options.now ?? Date.now() };
    writeLock(paths, lock);
    const grant = readGrants(paths)[manifest.id];
    return { manifest, updated, widened: grant ? widenedPermissions(manifest.permissions, grant.permissions) : [], sha256 };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
