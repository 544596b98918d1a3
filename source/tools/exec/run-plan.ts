import type { ResultPromise } from 'execa';
import { closeSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { OutputBuffer } from './output-buffer.js';
import type { ExecPlan, PlanCommand } from './plan.js';
import { descendantsOf, signalIfSame } from './proc-stat.js';
import type { ProcessGroupLedger } from './process-groups.js';

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
  /** How one command starts (inside the sandbox, with git hardened); default: the executable itself. */
  launch?(executable: string, argv: readonly string[]): Launch;
  /** Opens a redirection target as claw checks it (confined to the roots); default: execa opens the path. */
  openRedirect?(target: string, op: '<' | '>' | '>>'): number;
  /** Where each command's process group is recorded while it runs, so a gateway killed with SIGKILL leaves none behind. */
  groups?: Pick<ProcessGroupLedger, 'track' | 'forget'>;
}

export interface Launch {
  file: string;
  args: string[];
  /** Replaces the run's env for this command. */
  env?: Record<string, string>;
  /** Whether argv[0] can be passed on as written (not through a wrapper such as bwrap). */
  keepArgv0: boolean;
}

function direct(executable: string, argv: readonly string[]): Launch {
  return { file: executable, args: argv.slice(1), keepArgv0: true };
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

  /**
   * Ends every process the run started, however deep. A sandboxed command runs
   * in a session of its own inside bwrap, out of reach of the group signal,
   * and bwrap stopped early in its set-up does not always take it along: so
   * the groups are frozen first (nothing forks while the tree is read), then
   * every process found below them is signalled too, and again at SIGKILL
   * time, when bwrap may be gone and its children re-parented.
   */
  kill(reason: 'timeout' | 'aborted'): void {
    this.#killed ??= reason;
    const roots = this.pids;
    this.#signalAll('SIGSTOP');
    const tree = descendantsOf(roots);
    for (const stat of tree) signalIfSame(stat, 'SIGSTOP');
    this.#signalAll('SIGTERM');
    for (const stat of tree) signalIfSame(stat, 'SIGTERM');
    this.#signalAll('SIGCONT');
    for (const stat of tree) signalIfSame(stat, 'SIGCONT');
    setTimeout(() => {
      this.#signalAll('SIGKILL');
      for (const stat of [...tree, ...descendantsOf(roots)]) signalIfSame(stat, 'SIGKILL');
    }, KILL_GRACE_MS).unref();
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
      else if (this.plan.shellRequired) exitCode = await this.#pipeline([{ argv: ['sh', '-c', this.plan.text], redirects: [] }], ['/bin/sh']);
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
    const fds: number[] = [];
    const target = (path: string, op: '<' | '>' | '>>') => {
      if (!this.options.openRedirect) return op === '<' ? { file: this.#path(path) } : { file: this.#path(path), append: op === '>>' };
      const fd = this.options.openRedirect(this.#path(path), op);
      fds.push(fd);
      return fd;
    };
    let children: Child[];
    try {
      children = this.#spawn(commands, executables, execa, target);
    } catch (error) {
      // Like a shell that cannot open a redirection: the command fails with the reason, the run goes on.
      for (const fd of fds) closeSync(fd);
      this.#append(`${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    }
    try {
      return await this.#wire(commands, children);
    } finally {
      for (const fd of fds) closeSync(fd);
    }
  }

  #spawn(
    commands: PlanCommand[],
    executables: string[],
    execa: typeof import('execa').execa,
    target: (path: string, op: '<' | '>' | '>>') => number | { file: string; append?: boolean },
  ): Child[] {
    const launch = this.options.launch ?? direct;
    // Every redirection is opened (and checked) before the first process starts, so a refused one starts nothing.
    const stdio = commands.map((command, position) => {
      const input = command.redirects.find((r) => r.fd === 0);
      const out = command.redirects.findLast((r) => r.fd === 1);
      const err = command.redirects.findLast((r) => r.fd === 2);
      return {
        err,
        stdin: input?.target ? target(input.target, '<') : position > 0 ? 'pipe' : this.options.interactive ? 'pipe' : 'ignore',
        stdout: out?.target ? target(out.target, out.op as '>' | '>>') : 'pipe',
        stderr: err?.target ? target(err.target, err.op as '>' | '>>') : 'pipe',
      };
    });
    return commands.map((command, position) => {
      const { err, stdin, stdout, stderr } = stdio[position]!;
      const last = position === commands.length - 1;
      const how = launch(executables[position]!, command.argv);
      // The stdio union (pipe, fd, file) is wider than one execa overload accepts at once.
      const start = execa as unknown as (file: string, args: string[], options: object) => Child;
      const child = start(how.file, how.args, {
        cwd: this.options.cwd,
        env: how.env ?? this.options.env,
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
        ...(how.keepArgv0 ? { argv0: command.argv[0] } : {}),
      });
      this.#children.add(child);
      const { pid } = child;
      const groups = this.options.groups;
      if (groups && pid !== undefined) {
        groups.track(pid, command.argv.join(' '));
        void child.then(() => groups.forget(pid));
      }
      return child;
    });
  }

  async #wire(commands: PlanCommand[], children: Child[]): Promise<number | null> {
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
