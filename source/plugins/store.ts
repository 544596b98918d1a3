import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { writeFileAtomicSync, type StatePaths } from '../config/index.js';
import { readManifest, widenedPermissions, type PluginManifest, type PluginPermissions } from './manifest.js';

/** Where plugins live under the state dir (the exec sandbox hides all of it from commands). */
export interface PluginPaths {
  root: string;
  dir(id: string): string;
  lock: string;
  grants: string;
  storage(id: string): string;
  log(id: string): string;
  /** `claw plugins secret set` values, with the other credentials (0600). */
  secrets(id: string): string;
}

export function pluginPaths(paths: Pick<StatePaths, 'root' | 'logs' | 'credentials'>): PluginPaths {
  const root = join(paths.root, 'plugins');
  return {
    root,
    dir: (id) => join(root, id),
    lock: join(root, 'plugins.lock'),
    grants: join(root, 'grants.json'),
    storage: (id) => join(root, '.data', `${id}.json`),
    log: (id) => join(paths.logs, 'plugins', `${id}.log`),
    secrets: (id) => join(paths.credentials, 'plugins', `${id}.json`),
  };
}

/** The secrets stored for a plugin by name (`claw plugins secret set`). */
export function readPluginSecrets(paths: PluginPaths, id: string): Record<string, string> {
  const stored = readJson<Record<string, unknown>>(paths.secrets(id), {});
  return Object.fromEntries(Object.entries(stored).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== ''));
}

/** Stores (or with `undefined`, removes) one of a plugin's secrets; the file stays 0600. */
export function writePluginSecret(paths: PluginPaths, id: string, name: string, value: string | undefined): void {
  const all = readPluginSecrets(paths, id);
  if (value === undefined) delete all[name];
  else all[name] = value;
  mkdirSync(dirname(paths.secrets(id)), { recursive: true, mode: 0o700 });
  writeFileAtomicSync(paths.secrets(id), `${JSON.stringify(all, null, 2)}\n`, 0o600);
}

/** One installed plugin as `plugins.lock` pins it. */
export interface LockEntry {
  version: string;
  /** What it was installed from (a folder, a .tgz, an npm spec). */
  source: string;
  /** sha256 of every file of the installed package, dependencies included. */
  sha256: string;
  installedAt: number;
}

/** What the owner granted, and whether the plugin runs. */
export interface GrantEntry {
  enabled: boolean;
  permissions: PluginPermissions;
  grantedAt: number;
}

function readJson<T>(file: string, fallback: T): T {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return fallback;
    throw new Error(`${file} is unreadable (${(error as Error).message}); fix or remove it.`);
  }
}

export function readLock(paths: PluginPaths): Record<string, LockEntry> {
  return readJson<{ plugins?: Record<string, LockEntry> }>(paths.lock, {}).plugins ?? {};
}

export function writeLock(paths: PluginPaths, plugins: Record<string, LockEntry>): void {
  mkdirSync(paths.root, { recursive: true, mode: 0o700 });
  writeFileAtomicSync(paths.lock, `${JSON.stringify({ version: 1, plugins }, null, 2)}\n`);
}

export function readGrants(paths: PluginPaths): Record<string, GrantEntry> {
  return readJson<Record<string, GrantEntry>>(paths.grants, {});
}

function writeGrants(paths: PluginPaths, grants: Record<string, GrantEntry>): void {
  mkdirSync(paths.root, { recursive: true, mode: 0o700 });
  writeFileAtomicSync(paths.grants, `${JSON.stringify(grants, null, 2)}\n`);
}

/**
 * sha256 over every file under `dir` (sorted relative path, then content),
 * symlinks by their target text: a changed byte anywhere in the package or
 * its dependencies changes it.
 */
export function treeHash(dir: string): string {
  const hash = createHash('sha256');
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const path = join(folder, entry.name);
      const rel = relative(dir, path);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        hash.update(`f\0${rel}\0`);
        hash.update(readFileSync(path));
        hash.update('\0');
      } else if (entry.isSymbolicLink()) hash.update(`l\0${rel}\0`);
    }
  };
  walk(dir);
  return hash.digest('hex');
}

export type PluginState = 'disabled' | 'needs-approval' | 'starting' | 'running' | 'error';

/** One plugin as `claw plugins list` and the service see it. */
export interface PluginRecord {
  id: string;
  dir: string;
  manifest?: PluginManifest;
  lock?: LockEntry;
  grant?: GrantEntry;
  /** Why it cannot run as installed (bad manifest, tampered package, permissions wider than granted). */
  problem?: string;
  /** Permissions the manifest asks for beyond the grant. */
  widened: string[];
}

/** Reads one installed plugin and checks it against the lock and the grant; never runs its code. */
export function inspectPlugin(paths: PluginPaths, id: string, options: { verifyHash?: boolean } = {}): PluginRecord {
  const dir = paths.dir(id);
  const lock = readLock(paths)[id];
  const grant = readGrants(paths)[id];
  const record: PluginRecord = { id, dir, widened: [], ...(lock ? { lock } : {}), ...(grant ? { grant } : {}) };
  if (!existsSync(dir)) return { ...record, problem: `${dir} is missing; reinstall with \`claw plugins add\`.` };
  try {
    record.manifest = readManifest(dir);
  } catch (error) {
    return { ...record, problem: (error as Error).message };
  }
  if (record.manifest.id !== id) return { ...record, problem: `the manifest in ${dir} says it is "${record.manifest.id}", not "${id}"; reinstall it.` };
  if (!lock) return { ...record, problem: `not in plugins.lock; reinstall with \`claw plugins add\`.` };
  if (options.verifyHash !== false) {
    const actual = treeHash(dir);
    if (actual !== lock.sha256)
      return {
        ...record,
        problem: `plugins.lock mismatch: ${dir} changed since it was installed (sha256 ${actual.slice(0, 12)}…, pinned ${lock.sha256.slice(0, 12)}…); it will not load. Reinstall it with \`claw plugins add\`.`,
      };
  }
  record.widened = grant ? widenedPermissions(record.manifest.permissions, grant.permissions) : [];
  return record;
}

export function installedIds(paths: PluginPaths): string[] {
  const ids = new Set(Object.keys(readLock(paths)));
  if (existsSync(paths.root))
    for (const entry of readdirSync(paths.root, { withFileTypes: true })) if (entry.isDirectory() && !entry.name.startsWith('.')) ids.add(entry.name);
  return [...ids].sort();
}

/** Forgets a plugin: its folder, lock entry, grant and storage. */
export function removePlugin(paths: PluginPaths, id: string): boolean {
  const lock = readLock(paths);
  const grants = readGrants(paths);
  const known = id in lock || existsSync(paths.dir(id));
  delete lock[id];
  delete grants[id];
  writeLock(paths, lock);
  writeGrants(paths, grants);
  rmSync(paths.dir(id), { recursive: true, force: true });
  rmSync(paths.storage(id), { force: true });
  rmSync(paths.secrets(id), { force: true });
  return known;
}

/** Grants the manifest's permissions and enables the plugin. */
export function grantPlugin(paths: PluginPaths, id: string, permissions: PluginPermissions, now: number): void {
  const grants = readGrants(paths);
  grants[id] = { enabled: true, permissions, grantedAt: now };
  writeGrants(paths, grants);
}

export function disablePlugin(paths: PluginPaths, id: string): boolean {
  const grants = readGrants(paths);
  const grant = grants[id];
  if (!grant?.enabled) return false;
  grants[id] = { ...grant, enabled: false };
  writeGrants(paths, grants);
  return true;
}
