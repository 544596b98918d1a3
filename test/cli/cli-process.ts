import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const cliEntry = fileURLToPath(new URL('../../dist/cli/claw.cjs', import.meta.url));

export function assertBuilt(): void {
  if (!existsSync(cliEntry)) throw new Error(`${cliEntry} is missing: run \`npm run build\` before the CLI tests.`);
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node dist/cli/claw.cjs …args` (the package's bin) to completion. */
export function runClaw(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliEntry, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Like runClaw, but fails with the child's stderr when it does not exit 0. */
export async function runClawOk(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  const result = await runClaw(args, env);
  if (result.code !== 0) throw new Error(`claw ${args.join(' ')} exited ${String(result.code)}:\n${result.stderr}${result.stdout}`);
  return result;
}

/** A foreground `claw gateway run` child; its exit is observable, unlike a detached start. */
export function spawnGatewayRun(
  env: NodeJS.ProcessEnv,
  extraArgs: string[] = [],
): { child: ChildProcess; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>; output: () => string } {
  const child = spawn(process.execPath, [cliEntry, 'gateway', 'run', '--port', '0', ...extraArgs], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });
  return { child, exited, output: () => output };
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Every process whose parent chain leads to `pid` (from /proc). */
export function descendantsOf(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parentOf.set(Number(name), ppid);
    } catch {
      /* exited while listing */
    }
  }
  const found: number[] = [];
  const walk = (parent: number): void => {
    for (const [child, ppid] of parentOf) {
      if (ppid === parent) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return found;
}

export async function readyz(port: number): Promise<number> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/readyz`)).status;
  } catch {
    return 0;
  }
}
