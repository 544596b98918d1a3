import { spawn } from 'node:child_process';
import type { Clock } from '../config/index.js';
import { readHookResult, type HookResult } from './hook-result.js';

export const BLOCK_EXIT_CODE = 2;
const OUTPUT_LIMIT = 64 * 1024;

export interface CommandRun {
  /** The hook's `command:`, as messages name it. */
  command: string;
  /** What is started: `/bin/sh -c command`, or the sandbox wrapped around it. */
  launch: { file: string; args: readonly string[] };
  cwd: string;
  env: Record<string, string>;
  input: string;
  timeoutMs: number;
  clock: Clock;
}

export class HookTimeoutError extends Error {}

/** A hook command started as is, outside any sandbox. */
export function shellLaunch(command: string): CommandRun['launch'] {
  return { file: '/bin/sh', args: ['-c', command] };
}

/**
 * Runs a hook's `command:` through /bin/sh in its folder with the event as
 * JSON on stdin. Exit 0: stdout may hold a JSON result; exit 2: blocked, the
 * reason is stderr; anything else is a failure. Past the timeout the whole
 * process group is killed.
 */
export function runHookCommand(run: CommandRun): Promise<HookResult | undefined> {
  return new Promise((resolve, reject) => {
    const child = spawn(run.launch.file, [...run.launch.args], { cwd: run.cwd, env: run.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (stdout.length < OUTPUT_LIMIT) stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < OUTPUT_LIMIT) stderr += chunk.toString();
    });
    const timer = run.clock.setTimer(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, run.timeoutMs);
    child.on('error', (error) => {
      run.clock.clearTimer(timer);
      reject(new Error(`could not start "${run.command}": ${error.message}`));
    });
    child.on('close', (code, signal) => {
      run.clock.clearTimer(timer);
      if (timedOut) return reject(new HookTimeoutError(`"${run.command}" took longer than ${run.timeoutMs} ms and was killed`));
      if (code === BLOCK_EXIT_CODE) return resolve({ block: true, reason: stderr.trim() || 'blocked by a hook (it gave no reason on stderr)' });
      if (code !== 0) return reject(new Error(`"${run.command}" exited with ${signal ?? code}${stderr.trim() ? `: ${stderr.trim().slice(0, 500)}` : ''}`));
      const text = stdout.trim();
      if (!text.startsWith('{')) return resolve(undefined);
      try {
        resolve(readHookResult(JSON.parse(text)));
      } catch {
        resolve(undefined);
      }
    });
    // A hook that does not read its stdin must not fail the write.
    child.stdin.on('error', () => undefined);
    child.stdin.end(run.input);
  });
}
