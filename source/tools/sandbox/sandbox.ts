import { realOrSelf } from '../fs/confine.js';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readlinkSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, delimiter, dirname, isAbsolute, join, relative, resolve } from 'node:path';

export interface SandboxPolicy {
  /** Folders the command may write (workspace, tools.fsRoots); everything else is read-only. */
  writable: readonly string[];
  /** Folders and files the command must not see at all (the claw state dir, secret folders). */
  hidden: readonly string[];
  /** Whether the command keeps the host network; without it only a private loopback exists. */
  network: boolean;
  /** Paths inside a writable folder that stay read-only (the workspace's hooks/, skills/, bootstrap files); missing ones are skipped. */
  readOnly?: readonly string[];
  /** The home folder, replaced by an empty one in which only `readable` (and the writable roots) come back. */
  home?: ConcealedHome | undefined;
  /** Paths bound back read-only after everything is hidden (a plugin's own folder inside the hidden state dir). */
  visible?: readonly string[];
}

export interface ConcealedHome {
  path: string;
  /** Absolute paths under `path` a command may read: tools.exec.sandbox.readable and the toolchains on PATH. */
  readable: readonly string[];
}

export type SandboxStatus = { kind: 'bubblewrap'; path: string } | { kind: 'none'; reason: string };

export interface WrappedCommand {
  file: string;
  args: string[];
}

export const BWRAP_CANDIDATES = ['/usr/bin/bwrap', '/usr/local/bin/bwrap', '/bin/bwrap'];

let probed: SandboxStatus | undefined;

/**
 * Finds a sandbox that can actually start here (bwrap may be installed but
 * refused by the kernel's user-namespace settings), once per process.
 */
export function probeSandbox(): SandboxStatus {
  if (probed) return probed;
  const path = bwrapCandidate();
  if (typeof path !== 'string') {
    probed = path;
    return probed;
  }
  const trial = spawnSync(path, PROBE_ARGS, { encoding: 'utf8', timeout: PROBE_TIMEOUT_MS });
  probed = trialStatus(path, trial.status, trial.stderr || trial.error?.message);
  return probed;
}

/**
 * The same probe without blocking: the daemon runs it once listening, so the
 * first status or hello snapshot (which reads the sandbox's state) does not
 * hold every client up for the ~20 ms of a synchronous bwrap start.
 */
export function probeSandboxInBackground(): Promise<void> {
  if (probed) return Promise.resolve();
  const path = bwrapCandidate();
  if (typeof path !== 'string') {
    probed = path;
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    let stderr = '';
    const child = spawn(path, PROBE_ARGS, { stdio: ['ignore', 'ignore', 'pipe'], timeout: PROBE_TIMEOUT_MS });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const settle = (status: number | null, error?: string): void => {
      // A synchronous probe that ran meanwhile already decided.
      probed ??= trialStatus(path, status, stderr || error);
      resolve();
    };
    child.on('error', (error) => settle(null, error.message));
    child.on('close', (status) => settle(status));
  });
}

// --as-pid-1: without it bwrap forks a reaper for the new pid namespace that
// outlives bwrap by a moment as a zombie of the host's init; a gateway stopped
// while the probe runs would leave that behind.
export const PROBE_ARGS = [
  '--ro-bind',
  '/',
  '/',
  '--dev',
  '/dev',
  '--proc',
  '/proc',
  '--unshare-net',
  '--unshare-pid',
  '--die-with-parent',
  '--new-session',
  '--as-pid-1',
  '/bin/true',
];
const PROBE_TIMEOUT_MS = 10_000;

/** The bwrap to try, or why there is none. */
function bwrapCandidate(): string | SandboxStatus {
  if (process.platform !== 'linux') return { kind: 'none', reason: `no exec sandbox on ${process.platform} yet (Linux uses bubblewrap)` };
  return BWRAP_CANDIDATES.find((candidate) => existsSync(candidate)) ?? { kind: 'none', reason: 'bubblewrap is not installed (apt-get install bubblewrap)' };
}

function trialStatus(path: string, status: number | null, stderr: string | undefined): SandboxStatus {
  return status === 0 ? { kind: 'bubblewrap', path } : { kind: 'none', reason: `bubblewrap cannot start here: ${(stderr || `exit ${status}`).trim()}` };
}

function within(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The hidden set: the state dir plus the configured secret paths (home-relative or absolute). */
export function hiddenPaths(stateDir: string, secretPaths: readonly string[], home = homedir()): string[] {
  return [stateDir, ...secretPaths.map((path) => (isAbsolute(path) ? path : join(home, path)))];
}

/**
 * What a command may read of the home folder besides the workspace and
 * tools.fsRoots: the configured `readable` entries (home-relative or
 * absolute) and every PATH folder under home, so a toolchain installed
 * there (nvm, cargo, pyenv) keeps working. For a `bin` folder its parent
 * comes too (a node from nvm needs its lib/), except for home itself and
 * ~/.local, whose share/ holds other programs' data.
 */
export function concealedHome(readable: readonly string[], pathVariable = process.env.PATH ?? '', home = homedir()): ConcealedHome {
  const inHome = (path: string) => within(home, path) && path !== home;
  const toolchains = pathVariable
    .split(delimiter)
    .filter((entry) => isAbsolute(entry) && inHome(resolve(entry)))
    .map((entry) => {
      const parent = dirname(resolve(entry));
      return basename(entry) === 'bin' && parent !== home && basename(parent) !== '.local' ? parent : resolve(entry);
    });
  const listed = readable.map((path) => (isAbsolute(path) ? resolve(path) : join(home, path)));
  return { path: home, readable: [...new Set([...listed, ...toolchains])] };
}

/**
 * Whether a command inside the sandbox would see `real` (a resolved path):
 * inside a root it does; a hidden path or, when home is concealed, a path
 * in home outside the readable list it does not.
 */
export function visibleInSandbox(real: string, roots: readonly string[], hidden: readonly string[], home: ConcealedHome | undefined): boolean {
  if (roots.some((root) => within(realOrSelf(root), real))) return true;
  if (hidden.some((path) => within(realOrSelf(path), real))) return false;
  if (!home || !within(realOrSelf(home.path), real)) return true;
  return home.readable.some((path) => within(realOrSelf(path), real));
}

/**
 * Home as an empty tmpfs with the readable entries bound back read-only.
 * A readable symlink (a dotfile kept in a dotfiles repo) comes back as the
 * same link plus its target. Nothing happens for a home of `/` or none.
 */
function concealHome(home: ConcealedHome | undefined): string[] {
  if (!home || !existsSync(home.path)) return [];
  const root = realOrSelf(resolve(home.path));
  if (root === '/') return [];
  const out = ['--tmpfs', root];
  for (const path of home.readable) {
    const real = realOrSelf(path);
    if (!existsSync(real) || !within(root, real) || real === root) continue;
    out.push('--ro-bind', real, real);
    const link = join(root, relative(home.path, path));
    if (link !== real && within(root, link) && lstatSync(path).isSymbolicLink()) out.push('--symlink', readlinkSync(path), link);
  }
  return out;
}

/**
 * The readable entries the sandbox's own private /tmp would hide (an agent's
 * program installed under /tmp, a toolchain on PATH there), bound back
 * read-only: readable means readable, wherever it lives.
 */
function readableInTmp(home: ConcealedHome | undefined): string[] {
  const out: string[] = [];
  for (const path of home?.readable ?? []) {
    const real = realOrSelf(path);
    if (real !== '/tmp' && within('/tmp', real) && existsSync(real)) out.push('--ro-bind', real, real);
  }
  return out;
}

function hide(path: string): string[] {
  if (!existsSync(path)) return [];
  // A folder becomes an empty tmpfs, a file an empty read-only file.
  return statSync(path).isDirectory() ? ['--tmpfs', path] : ['--ro-bind', '/dev/null', path];
}

/**
 * /run holds sockets a read-only mount does not protect (docker, D-Bus,
 * the user's agents): connecting needs no write to the file system. It is
 * replaced by an empty tmpfs, keeping only resolv.conf's target so DNS
 * still works when the network is granted.
 */
function runtimeDir(): string[] {
  if (!existsSync('/run')) return [];
  const out = ['--tmpfs', '/run'];
  const resolv = realOrSelf('/etc/resolv.conf');
  if (resolv.startsWith('/run/') && existsSync(resolv)) out.push('--ro-bind', resolv, resolv);
  if (!realOrSelf('/var/run').startsWith('/run') && existsSync('/var/run')) out.push('--tmpfs', '/var/run');
  return out;
}

/**
 * The bubblewrap command line that runs `executable argv…` with a read-only
 * root, a private /tmp and /proc, an empty home but for what `home` lists,
 * only `writable` writable, `hidden` gone,
 * and no network unless granted. A hidden folder that holds a writable one
 * (the state dir holds the workspace) is hidden first and the writable one
 * bound back on top; any other hidden path is hidden last, so a writable
 * root such as the home folder (or the state dir itself, if someone lists it
 * in tools.fsRoots) cannot expose it.
 */
export function bubblewrapArgs(bwrap: string, policy: SandboxPolicy, cwd: string, executable: string, args: readonly string[]): WrappedCommand {
  const writable = [...new Set(policy.writable.map((path) => realOrSelf(resolve(path))))].filter((path) => existsSync(path));
  const hidden = [...new Set(policy.hidden.map((path) => realOrSelf(resolve(path))))];
  const holders = hidden.filter((h) => writable.some((w) => within(h, w) && w !== h));
  // Hidden last: everything not hidden before the binds, plus a holder some writable root would otherwise expose again.
  const last = hidden.filter((h) => !holders.includes(h) || writable.some((w) => within(w, h)));
  const out = [
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
    ...readableInTmp(policy.home),
    ...runtimeDir(),
    ...concealHome(policy.home),
  ];
  for (const path of holders) out.push(...hide(path));
  for (const path of writable) out.push('--bind', path, path);
  for (const path of last) out.push(...hide(path));
  for (const path of writable) if (last.some((h) => within(h, path) && h !== path)) out.push('--bind', path, path);
  for (const path of new Set((policy.readOnly ?? []).map((p) => realOrSelf(resolve(p))))) {
    const root = writable.find((w) => within(w, path));
    // A path hidden inside its writable root stays hidden; a hidden folder around the root (the state dir) does not count.
    const hiddenWithin = root !== undefined && hidden.some((h) => within(h, path) && within(root, h));
    if (root && !hiddenWithin && existsSync(path)) out.push('--ro-bind', path, path);
  }
  for (const path of new Set((policy.visible ?? []).map((p) => realOrSelf(resolve(p))))) if (existsSync(path)) out.push('--ro-bind', path, path);
  out.push('--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try');
  if (!policy.network) out.push('--unshare-net');
  out.push('--die-with-parent', '--new-session', '--chdir', cwd, '--', executable, ...args);
  return { file: bwrap, args: out };
}
