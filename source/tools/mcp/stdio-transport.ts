import { spawn, type ChildProcess } from 'node:child_process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { loadedSdk } from './sdk.js';

export interface GroupStdioOptions {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  onStderr(chunk: string): void;
}

/** Sudo's list: enough for a server to find its tools, nothing that carries our secrets. */
const INHERITED_ENV = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'LANG', 'TMPDIR'];
const GRACE_MS = 2000;
const STDERR_DRAIN_MS = 250;

function inheritedEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of INHERITED_ENV) {
    const value = process.env[key];
    // A value starting with "()" is an exported shell function: never pass code along.
    if (value !== undefined && !value.startsWith('()')) env[key] = value;
  }
  return env;
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // The group is already gone.
  }
}

// Not unref'd: a CLI that stops a server must stay alive until the group is gone (bounded by the grace periods).
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function waitGroupGone(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (groupAlive(pgid)) {
    if (Date.now() >= deadline) return false;
    await sleep(25);
  }
  return true;
}

/**
 * Ends every process of a server's group: the server and whatever a wrapper
 * script started in the background. TERM first, KILL after a grace period.
 */
export async function endProcessGroup(pgid: number): Promise<void> {
  if (!groupAlive(pgid)) return;
  signalGroup(pgid, 'SIGTERM');
  if (!(await waitGroupGone(pgid, GRACE_MS))) {
    signalGroup(pgid, 'SIGKILL');
    await waitGroupGone(pgid, GRACE_MS);
  }
}

function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `was killed by ${signal}` : `exited with code ${code}`;
}

/**
 * The stdio transport, with the server in a process group of its own so
 * stopping it (stop, restart, removal, or the server dying) also ends the
 * children a wrapper script left behind, and their pipes with them.
 */
export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** How the server process ended, once it has. */
  exit: string | undefined;
  #child: ChildProcess | undefined;
  #pgid: number | undefined;
  #closing = false;
  #closed = false;
  readonly #buffer = new (loadedSdk().stdio.ReadBuffer)();

  constructor(private readonly options: GroupStdioOptions) {}

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  start(): Promise<void> {
    const { command, args, env, cwd } = this.options;
    return new Promise((resolve, reject) => {
      const child = spawn(command, args, {
        env: { ...inheritedEnv(), ...env },
        ...(cwd ? { cwd } : {}),
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
      });
      this.#child = child;
      child.once('error', (error) => {
        reject(error);
        this.#finish();
      });
      child.once('spawn', () => {
        this.#pgid = child.pid;
        resolve();
      });
      child.once('exit', (code, signal) => {
        this.exit = describeExit(code, signal);
        void this.#afterExit(child);
      });
      child.stdin!.on('error', (error) => this.onerror?.(error));
      child.stdout!.on('data', (chunk: Buffer) => this.#read(chunk));
      child.stdout!.on('error', (error) => this.onerror?.(error));
      child.stderr!.on('data', (chunk: Buffer) => this.options.onStderr(chunk.toString('utf8')));
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin || this.#closing) return Promise.reject(new Error('the server process is not running'));
    return new Promise((resolve) => {
      if (stdin.write(loadedSdk().stdio.serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    const child = this.#child;
    if (child && child.exitCode === null && child.signalCode === null) {
      // A polite server exits when its stdin closes.
      child.stdin?.end();
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      await Promise.race([exited, sleep(GRACE_MS)]);
    }
    if (this.#pgid !== undefined) await endProcessGroup(this.#pgid);
    this.#finish();
  }

  #read(chunk: Buffer): void {
    try {
      this.#buffer.append(chunk);
    } catch (error) {
      // A line past the buffer limit cannot be a message we could use: the connection is beyond repair.
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      void this.close();
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.#buffer.readMessage();
      } catch (error) {
        // A line that is not JSON-RPC (a server printing to stdout) is reported, not fatal.
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  async #afterExit(child: ChildProcess): Promise<void> {
    // Background children of a wrapper would keep the pipes (and themselves) alive.
    if (!this.#closing && this.#pgid !== undefined) void endProcessGroup(this.#pgid);
    // Let the last stderr lines arrive so the error that follows can quote them.
    if (child.stderr && !child.stderr.readableEnded) {
      await Promise.race([new Promise<void>((resolve) => child.stderr!.once('end', () => resolve())), sleep(STDERR_DRAIN_MS)]);
    }
    if (!this.#closing) this.#finish();
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#buffer.clear();
    this.onclose?.();
  }
}
