import { spawn, spawnSync } from 'node:child_process';
import { builtinModules } from 'node:module';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productionPackages } from '../../scripts/runtime-deps.mjs';
import { commandTable } from '../../source/cli/command-table.js';
import { generalHelp } from '../../source/cli/help.js';
import { assertBuilt } from './cli-process.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  version: string;
  bin: Record<string, string>;
  files: string[];
  dependencies: Record<string, string>;
};

interface Meta {
  outputs: Record<string, { imports: Array<{ path: string; kind: string; external?: boolean }> }>;
}

function run(node: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  return spawnSync(node, args, { cwd, env, encoding: 'utf8', timeout: 20_000 });
}

/** The packaged files (package.json `files`) and the production node_modules, copied to a temp dir. */
function installShaped(dir: string, withModules: boolean): void {
  cpSync(join(root, 'package.json'), join(dir, 'package.json'));
  mkdirSync(join(dir, 'dist', 'chunks'), { recursive: true });
  for (const pattern of manifest.files) {
    const chunks = /^dist\/chunks\/\*(\.c?js)$/.exec(pattern);
    if (chunks) {
      for (const name of readdirSync(join(root, 'dist', 'chunks'))) {
        if (name.endsWith(chunks[1]!)) cpSync(join(root, 'dist', 'chunks', name), join(dir, 'dist', 'chunks', name));
      }
    } else cpSync(join(root, pattern), join(dir, pattern), { recursive: true });
  }
  if (!withModules) return;
  for (const { path } of productionPackages(root)) {
    cpSync(join(root, path), join(dir, path), {
      recursive: true,
      dereference: true,
      filter: (src) => !src.slice(join(root, path).length).includes('node_modules'),
    });
  }
}

/** An optional peer of a package (Ink's devtools, ws's native speed-ups) is imported only when installed. */
function optionalPeerNames(): Set<string> {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { peerDependenciesMeta?: Record<string, { optional?: boolean }> }>;
  };
  return new Set(
    Object.values(lock.packages).flatMap((entry) => Object.entries(entry.peerDependenciesMeta ?? {}).flatMap(([name, m]) => (m.optional ? [name] : []))),
  );
}

describe('the shipped bundle', () => {
  beforeAll(assertBuilt);

  it('is what `bin` runs, and it loads only chunks, node built-ins and runtime dependencies', () => {
    expect(manifest.bin.claw).toBe('dist/cli/claw.cjs');
    // The executable answers help and version itself, requires the status command, loads `gateway run` and the TUI as code-cached bundles, and imports main.js for the rest.
    const bin = readFileSync(join(root, manifest.bin.claw!), 'utf8');
    const required = [...bin.matchAll(/(?<!\.)\brequire\("([^"]*)"\)/g)].map((m) => m[1]!);
    expect(required.filter((id) => !builtinModules.includes(id.replace(/^node:/, '')))).toEqual(['../chunks/status-command.cjs']);
    expect(bin.match(/\bimport\("[^"]*"\)/g)).toEqual(['import("./main.js")']);
    const meta = JSON.parse(readFileSync(join(root, 'dist', 'meta.json'), 'utf8')) as Meta;
    const builtins = new Set(builtinModules);
    const bare = new Set<string>();
    for (const [file, output] of Object.entries(meta.outputs)) {
      if (!file.endsWith('.js')) continue;
      expect(file === 'dist/cli/main.js' || file.startsWith('dist/chunks/'), file).toBe(true);
      for (const imported of output.imports) {
        if (!imported.external) expect(imported.path.startsWith('dist/chunks/') || imported.path === 'dist/cli/main.js', imported.path).toBe(true);
        // A command bundled on its own (scripts/build.mjs) is loaded by its path from dist/cli/ or dist/chunks/.
        else if (imported.path.startsWith('../chunks/')) expect(Object.keys(meta.outputs), imported.path).toContain(`dist/${imported.path.slice(3)}`);
        else if (!builtins.has(imported.path.replace(/^node:/, '')))
          bare.add(
            imported.path
              .split('/')
              .slice(0, imported.path.startsWith('@') ? 2 : 1)
              .join('/'),
          );
      }
    }
    const optionalPeers = optionalPeerNames();
    for (const name of bare) {
      if (!optionalPeers.has(name)) expect(Object.keys(manifest.dependencies), `${name} is imported at run time`).toContain(name);
    }
    // The first file `claw` reads is the entry, not a tree of modules: its static imports are a few chunks.
    const entryImports = meta.outputs['dist/cli/main.js']!.imports.filter((i) => i.kind === 'import-statement');
    expect(entryImports.length).toBeLessThanOrEqual(4);
  });

  it('runs `gateway run` and the TUI from bundles that require only built-ins, runtime dependencies and each other', () => {
    const meta = JSON.parse(readFileSync(join(root, 'dist', 'meta.json'), 'utf8')) as Meta;
    const bundles = Object.keys(meta.outputs).filter((file) => /^dist\/chunks\/(gateway-run|tui-run|vendor-[a-z-]+)\.cjs$/.test(file));
    expect(bundles).toEqual(expect.arrayContaining(['dist/chunks/gateway-run.cjs', 'dist/chunks/tui-run.cjs']));
    const allowed = new Set([...builtinModules, ...Object.keys(manifest.dependencies), ...optionalPeerNames()]);
    for (const file of bundles) {
      const source = readFileSync(join(root, file), 'latin1');
      // code-cache.ts compiles the file as one function expression, read as latin1.
      expect(source.startsWith('(function (exports, require, module, __filename, __dirname) {'), file).toBe(true);
      expect(/[^\x00-\x7f]/.test(source), `${file} is ASCII`).toBe(false);
      for (const { path, external } of meta.outputs[file]!.imports) {
        expect(external, `${file} inlines ${path}`).toBe(true);
        if (path.startsWith('./vendor-')) expect(bundles, `${file} requires ${path}`).toContain(`dist/chunks/${path.slice(2)}`);
        else expect(allowed.has(path.replace(/^node:/, '')) || allowed.has(path.split('/')[0]!), `${file} requires ${path}`).toBe(true);
      }
    }
  });

  it('loads for `claw status` only the client, the paths and the protocol pieces it sends, not zod', () => {
    const meta = JSON.parse(readFileSync(join(root, 'dist', 'meta.json'), 'utf8')) as {
      outputs: Record<string, { inputs: Record<string, unknown>; imports: Array<{ path: string; external?: boolean }> }>;
    };
    const status = meta.outputs['dist/chunks/status-command.cjs'];
    expect(status, 'scripts/build.mjs bundles status on its own').toBeDefined();
    const inputs = Object.keys(status!.inputs);
    // ws is inlined (one chunk instead of its fifteen CommonJS files); no other package is.
    expect(inputs.filter((path) => path.includes('node_modules/') && !path.startsWith('node_modules/ws/'))).toEqual([]);
    expect(inputs.filter((path) => /^source\/(config\/(schema|sections)|protocol\/(methods|events)|gateway|core)\b/.test(path))).toEqual([]);
    // Only node built-ins, and ws's optional native speed-ups (required inside a try).
    const wsPeers = ['bufferutil', 'utf-8-validate'];
    expect(status!.imports.filter((i) => !builtinModules.includes(i.path.replace(/^node:/, '')) && !wsPeers.includes(i.path)).map((i) => i.path)).toEqual([]);
  });

  it('answers --help and --version from the build, the same text as the command table gives', () => {
    const env = { ...process.env, NODE_PATH: '' };
    for (const entry of [manifest.bin.claw!, 'dist/cli/main.js']) {
      const help = run(process.execPath, [join(root, entry), '--help'], root, env);
      expect(help.status).toBe(0);
      expect(help.stdout).toBe(generalHelp());
      for (const name of Object.keys(commandTable).filter((n) => n !== '')) expect(help.stdout).toContain(`  ${name} `);
    }
  });

  describe('installed without dev dependencies', () => {
    let bare: string;
    let installed: string;
    let state: string;
    beforeAll(() => {
      bare = mkdtempSync(join(tmpdir(), 'claw-bundle-bare-'));
      installed = mkdtempSync(join(tmpdir(), 'claw-bundle-prod-'));
      state = mkdtempSync(join(tmpdir(), 'claw-bundle-state-'));
      installShaped(bare, false);
      installShaped(installed, true);
    }, 120_000);
    afterAll(() => {
      for (const dir of [bare, installed, state]) rmSync(dir, { recursive: true, force: true });
    }, 60_000);

    it('starts help and version with no node_modules at all', () => {
      expect(existsSync(join(bare, 'node_modules'))).toBe(false);
      const env = { ...process.env, CLAW_STATE_DIR: state };
      for (const entry of ['dist/cli/main.js', manifest.bin.claw!]) {
        const version = run(process.execPath, [join(bare, entry), '--version'], bare, env);
        expect(version.stderr).toBe('');
        expect(version.stdout).toBe(`${manifest.version}\n`);
        const help = run(process.execPath, [join(bare, entry), 'help', 'status'], bare, env);
        expect(help.status).toBe(0);
        expect(help.stdout).toContain('claw status [--json]');
      }
      // The executable answers them alone: without main.js, only what needs main.js fails.
      rmSync(join(bare, 'dist', 'cli', 'main.js'));
      expect(run(process.execPath, [join(bare, manifest.bin.claw!), 'status', '--help'], bare, env).stdout).toContain('claw status [--json]');
      expect(run(process.execPath, [join(bare, manifest.bin.claw!), 'status'], bare, env).status).not.toBe(0);
    });

    it('runs the gateway, status over the socket and the SQLite check from production node_modules only', async () => {
      for (const dev of ['typescript', 'tsx', 'esbuild', 'vitest']) expect(existsSync(join(installed, 'node_modules', dev))).toBe(false);
      const cli = join(installed, manifest.bin.claw!);
      const env: NodeJS.ProcessEnv = { ...process.env, CLAW_STATE_DIR: state };
      delete env.CLAW_GATEWAY_PORT;
      delete env.CLAW_GATEWAY_TOKEN;
      const gateway = spawn(process.execPath, [cli, 'gateway', 'run', '--port', '0'], { cwd: installed, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      gateway.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const exited = new Promise((resolve) => gateway.once('exit', resolve));
      try {
        let port: number | undefined;
        for (let i = 0; i < 1600 && port === undefined; i += 1) {
          if (gateway.exitCode !== null) throw new Error(`gateway exited with ${gateway.exitCode}: ${stderr}`);
          try {
            const info = JSON.parse(readFileSync(join(state, 'gateway.json'), 'utf8')) as { pid: number; port: number };
            if (info.pid === gateway.pid && (await fetch(`http://127.0.0.1:${info.port}/readyz`)).status === 200) port = info.port;
          } catch {
            // Not written or not listening yet.
          }
          if (port === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
        }
        expect(port, stderr).toBeDefined();
        const status = run(process.execPath, [cli, 'status', '--json'], installed, env);
        expect(status.status, status.stderr).toBe(0);
        expect(JSON.parse(status.stdout)).toMatchObject({ running: true, status: { port } });
        const doctor = run(process.execPath, [cli, 'doctor'], installed, env);
        // The native addons load from the installed copies: better-sqlite3 opens a database, sqlite-vec loads into it.
        expect(doctor.stdout).toMatch(/✓ sqlite-vec\s+vector search available/);
      } finally {
        gateway.kill('SIGTERM');
        await exited;
      }
      // A gateway start, two CLI runs and doctor's checks: several seconds each on a loaded 2-core box.
    }, 120_000);
  });
});
