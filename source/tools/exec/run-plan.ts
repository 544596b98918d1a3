import type { ResultPromise } from 'execa';
import { isAbsolute, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { OutputBuffer } from './output-buffer.js';
import type { ExecPlan, PlanCommand } from './plan.js';

export interface RunOptions {
  cwd: string;
  env: Record<string, string>;
  /** Resolved executable per command, in plan order (ignored when the plan runs through /bin/sh). */
  executables: string[];
  timeoutMs: number;
  maxOutputChars: number;
  signal?: AbortSignal;
  /** Keep stdin of the first command open for `process write`. */
  interactive?: boolean;
  onOutput?(text: string): void;
}

export interface RunResult {
  exitCode: number | null;
  /** Why it stopped early, if it did. */
  killed?: 'timeout' | 'aborted';
  output: string;
  totalChars: number;
  durationMs: number;
}

const KILL_GRACE_MS = 2000;

type Child = ResultPromise<{ detached: true; reject: false; buffer: false }>;

/**
 * Runs a plan: each command spawned directly (no shell) in its own process
 * group, pipes wired between them; or, for an approved shell-required plan,
 * the exact text through /bin/sh -c. A timeout or abort kills every group.
 */
export class PlanRun {
  readonly output: OutputBuffer;
  readonly result: Promise<RunResult>;
  #children = new Set<Child>();
  #killed: RunResult['killed'];
  #stdin: Writable | null = null;
  #timer: NodeJS.Timeout | undefined;
  #started = Date.now();
  #spawning = true;
  #earlyInput: string[] = [];

  constructor(
    readonly plan: ExecPlan,
    readonly options: RunOptions,
  ) {
    this.output = new OutputBuffer(options.maxOutputChars);
    this.result = this.#run();
  }

  get pids(): number[] {
    return [...this.#children].map((child) => child.pid).filter((pid): pid is number => pid !== undefined);
  }

  write(text: string): boolean {
    if (this.#spawning && this.options.interactive) {
      // Input sent before the process exists is kept and written once it does.
      this.#earlyInput.push(text);
      return true;
    }
    if (!this.#stdin || this.#stdin.destroyed) return false;
    this.#stdin.write(text);
    return true;
  }

  kill(reason: 'timeout' | 'aborted'): void {
    this.#killed ??= reason;
    this.#signalAll('SIGTERM');
    setTimeout(() => this.#signalAll('SIGKILL'), KILL_GRACE_MS).unref();
  }

  #signalAll(signal: NodeJS.Signals): void {
    for (const pid of this.pids) {
      try {
        process.kill(-pid, signal);
      } catch {
        // The group already exited.
      }
    }
  }

  #append = (chunk: unknown): void => {
    const text = typeof chunk === 'string' ? chunk : String(chunk);
    this.output.append(text);
    this.options.onOutput?.(text);
  };

  async #run(): Promise<RunResult> {
    const { signal, timeoutMs } = this.options;
    const onAbort = () => this.kill('aborted');
    signal?.addEventListener('abort', onAbort, { once: true });
    this.#timer = setTimeout(() => this.kill('timeout'), timeoutMs);
    let exitCode: number | null = null;
    try {
      if (signal?.aborted) this.kill('aborted');
      else if (this.plan.shellRequired) exitCode = await this.#pipeline([{ argv: ['/bin/sh', '-c', this.plan.text], redirects: [] }], ['/bin/sh']);
      else exitCode = await this.#steps();
    } finally {
      clearTimeout(this.#timer);
      signal?.removeEventListener('abort', onAbort);
    }
    const result: RunResult = { exitCode, output: this.output.text(), totalChars: this.output.totalChars, durationMs: Date.now() - this.#started };
    if (this.#killed) result.killed = this.#killed;
    return result;
  }

  async #steps(): Promise<number | null> {
    let exitCode: number | null = 0;
    let index = 0;
    for (const step of this.plan.steps) {
      const executables = this.options.executables.slice(index, index + step.pipeline.length);
      index += step.pipeline.length;
      if (this.#killed) break;
      if (step.connector === '&&' && exitCode !== 0) continue;
      if (step.connector === '||' && exitCode === 0) continue;
      exitCode = await this.#pipeline(step.pipeline, executables);
    }
    return exitCode;
  }

  #path(target: string): string {
    return isAbsolute(target) ? target : resolve(this.options.cwd, target);
  }

  async #pipeline(commands: PlanCommand[], executables: string[]): Promise<number | null> {
    // execa costs ~0.2 s to load: paid by the first command, not by every gateway start.
    const { execa } = await import('execa');
    if (this.#killed) return null;
    const children: Child[] = commands.map((command, position) => {
      const input = command.redirects.find((r) => r.fd === 0);
      const out = command.redirects.findLast((r) => r.fd === 1);
      const err = command.redirects.findLast((r) => r.fd === 2);
      const last = position === commands.length - 1;
      const stdin = input?.target ? { file: this.#path(input.target) } : position > 0 ? 'pipe' : this.options.interactive ? 'pipe' : 'ignore';
      const stdout = out?.target ? { file: this.#path(out.target), append: out.op === '>>' } : 'pipe';
      const stderr = err?.target ? { file: this.#path(err.target), append: err.op === '>>' } : 'pipe';
      const child = execa(executables[position]!, command.argv.slice(1), {
        cwd: this.options.cwd,
        env: this.options.env,
        extendEnv: false,
        detached: true,
        reject: false,
        buffer: false,
        stripFinalNewline: false,
        encoding: 'utf8',
        stdin,
        stdout,
        stderr,
        all: err?.op === '>&1' && !last,
        argv0: command.argv[0],
      } as const) as unknown as Child;
      this.#children.add(child);
      return child;
    });
    children.forEach((child, position) => {
      const command = commands[position]!;
      const last = position === commands.length - 1;
      const mergeErr = command.redirects.some((r) => r.fd === 2 && r.op === '>&1');
      if (!last) {
        const next = children[position + 1]!;
        (mergeErr ? child.all : child.stdout)?.pipe(next.stdin!);
        if (!mergeErr) child.stderr?.on('data', this.#append);
      } else {
        child.stdout?.on('data', this.#append);
        child.stderr?.on('data', this.#append);
      }
      // A reader that exits early closes the pipe; the writer's EPIPE is expected, not a failure.
      child.stdin?.on('error', () => undefined);
    });
    if (this.options.interactive) this.#stdin = children[0]!.stdin ?? null;
    this.#spawning = false;
    for (const text of this.#earlyInput.splice(0)) this.#stdin?.write(text);
    const results = await Promise.all(children);
    for (const child of children) this.#children.delete(child);
    const last = results[results.length - 1]!;
    return last.exitCode ?? (last.signal ? 128 : null);
  }
}
