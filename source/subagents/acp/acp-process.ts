import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { setImmediate as nextTurn } from 'node:timers/promises';

export interface AcpLaunch {
  file: string;
  args: readonly string[];
  cwd: string;
  env: Record<string, string>;
}

/** How long each step of a stop may take before the next, harder one. */
export interface StopTimings {
  /** After stdin is closed, for the agent to exit on its own. */
  graceMs: number;
  /** After SIGTERM to its process group, before SIGKILL. */
  termMs: number;
}

export const STOP_TIMINGS: StopTimings = { graceMs: 1500, termMs: 2000 };

/**
 * An external agent's process, started as the leader of its own process
 * group so a launcher (`npx`, an npm bin wrapping a binary) and everything it
 * starts end together. Inside bubblewrap the sandbox's pid namespace ends
 * with it too. `stop()` always returns within the timings plus a moment:
 * stdin closed, then SIGTERM to the group, then SIGKILL, then the pipes are
 * let go even if a stray descendant still holds them.
 */
export class AcpProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly spawned: Promise<void>;
  readonly exited: Promise<void>;
  #stderr = '';
  #exited = false;

  constructor(launch: AcpLaunch) {
    this.child = spawn(launch.file, [...launch.args], { cwd: launch.cwd, env: launch.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString()).slice(-4000);
    });
    // A write after the agent exited must not throw out of the stream.
    this.child.stdin.on('error', () => undefined);
    this.spawned = new Promise((resolve, reject) => {
      this.child.once('spawn', () => resolve());
      this.child.once('error', reject);
    });
    // 'exit', not 'close': a descendant that escaped the group may hold the pipes open forever.
    this.exited = new Promise((resolve) =>
      this.child.once('exit', () => {
        this.#exited = true;
        resolve();
      }),
    );
    this.child.once('error', () => {
      this.#exited = true;
    });
  }

  /** The last lines the agent wrote to stderr. */
  stderrTail(lines = 3): string {
    return this.#stderr.trim().split('\n').slice(-lines).join(' | ');
  }

  async stop(timings: StopTimings = STOP_TIMINGS): Promise<void> {
    if (this.child.pid === undefined) return;
    this.child.stdin.end();
    if (!(await this.#exitWithin(timings.graceMs))) {
      this.#signal('SIGTERM');
      if (!(await this.#exitWithin(timings.termMs))) {
        this.#signal('SIGKILL');
        await this.#exitWithin(timings.termMs);
      }
    }
    // The leader is gone; whatever is left of its group goes with it.
    this.#signal('SIGKILL');
    this.child.stdout.destroy();
    this.child.stderr.destroy();
  }

  #signal(signal: NodeJS.Signals): void {
    try {
      process.kill(-this.child.pid!, signal);
    } catch {
      // The group is already gone.
    }
  }

  async #exitWithin(ms: number): Promise<boolean> {
    if (this.#exited) return true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    });
    const done = await Promise.race([this.exited.then(() => true as const), timeout]);
    clearTimeout(timer);
    return done;
  }
}

/** What the agent's stdout is read in: small enough that parsing one piece never holds the event loop for long. */
const PIECE_BYTES = 4 * 1024;

/**
 * The agent's output as the protocol reads it, cut into pieces with a turn
 * of the event loop between them: an agent streaming tens of thousands of
 * updates then delays other clients' requests by one piece's parsing, not by
 * a whole pipe buffer's.
 */
export function yieldingStream(source: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let rest: Uint8Array | undefined;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!rest) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        rest = value;
      } else {
        await nextTurn();
      }
      const piece = rest.subarray(0, PIECE_BYTES);
      rest = rest.length > PIECE_BYTES ? rest.subarray(PIECE_BYTES) : undefined;
      controller.enqueue(piece);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
