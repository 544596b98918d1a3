import { spawn, type ChildProcess } from 'node:child_process';

/** A call the plugin process answered with an error (its message as the plugin gave it). */
export class PluginCallError extends Error {
  constructor(
    message: string,
    /** A provider's own classification of the failure (`auth`, `rate_limit`, …), when it gave one. */
    readonly kind?: string,
  ) {
    super(message);
  }
}

/** Why a plugin process was stopped by claw rather than by its own doing. */
class PluginQuarantined extends Error {}

export interface PluginProcessOptions {
  file: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd: string;
  /** How long a call may take before the process is judged hung. */
  callTimeoutMs: number;
  /** Requests the plugin makes of claw (storage, fetch). */
  onRequest(method: string, params: Record<string, unknown>): Promise<unknown>;
  /** Notifications the plugin sends (logs, tool progress, provider deltas). */
  onNotification(method: string, params: Record<string, unknown>): void;
  onStderr(text: string): void;
  /** The process ended or was stopped for misbehaving; `reason` says which. */
  onExit(reason: string): void;
}

/** Longest line the plugin may send: more is a flood, not a message. */
const MAX_LINE_BYTES = 8 * 1024 * 1024;
/** Messages a second before the process is stopped for flooding. */
const MAX_MESSAGES_PER_SECOND = 2000;
const KILL_GRACE_MS = 2000;

interface Waiter {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout | undefined;
  method: string;
}

/**
 * One plugin's child process and the newline-delimited JSON-RPC spoken with
 * it. Every call has a deadline; a process that misses one, floods the
 * channel or sends garbage is killed and reported through `onExit`, and
 * every call still waiting fails at once.
 */
export class PluginProcess {
  readonly #child: ChildProcess;
  readonly #waiters = new Map<string, Waiter>();
  #nextId = 1;
  #buffer = '';
  #window = { start: 0, count: 0 };
  #ended: string | undefined;

  constructor(private readonly options: PluginProcessOptions) {
    const child = spawn(options.file, [...options.args], { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    this.#child = child;
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => this.#read(chunk));
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => options.onStderr(chunk));
    child.stdin?.on('error', () => undefined);
    child.on('error', (error) => this.#end(`could not start: ${error.message}`));
    child.on('exit', (code, signal) => this.#end(signal ? `exited (killed by ${signal})` : `exited with code ${code}`));
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  get ended(): string | undefined {
    return this.#ended;
  }

  /** Calls a method of the plugin; `callId` lets `cancel` reach it, `onTimeout` overrides the deadline (streams re-arm it per delta). */
  call(method: string, params: Record<string, unknown>, timeoutMs = this.options.callTimeoutMs): Promise<unknown> {
    if (this.#ended) return Promise.reject(new PluginQuarantined(`the plugin process ${this.#ended}`));
    const id = `h${this.#nextId++}`;
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, method, timer: undefined };
      this.#waiters.set(id, waiter);
      this.#arm(id, timeoutMs);
      this.#write({ id, method, params });
    });
  }

  /** Restarts a call's deadline (a stream that keeps delivering is not hung). */
  touch(method: string): void {
    for (const [id, waiter] of this.#waiters) if (waiter.method === method) this.#arm(id, this.options.callTimeoutMs);
  }

  /** Restarts every call's deadline: data is flowing to the plugin (a response body it reads), so what waits on it is not hung. */
  touchAll(): void {
    for (const [id, waiter] of this.#waiters) if (waiter.method !== 'shutdown') this.#arm(id, this.options.callTimeoutMs);
  }

  notify(method: string, params: Record<string, unknown>): void {
    if (!this.#ended) this.#write({ method, params });
  }

  /** Asks the plugin to dispose and exit; kills its process group when it does not in time. */
  async stop(): Promise<void> {
    if (this.#ended) return;
    const exited = new Promise<void>((resolve) => this.#child.once('exit', () => resolve()));
    this.call('shutdown', {}, KILL_GRACE_MS).catch(() => undefined);
    const timer = setTimeout(() => this.kill('stopped'), KILL_GRACE_MS);
    await exited;
    clearTimeout(timer);
  }

  /** Ends the whole process group now. */
  kill(reason: string): void {
    this.#end(reason);
    const pid = this.#child.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }

  #arm(id: string, timeoutMs: number): void {
    const waiter = this.#waiters.get(id);
    if (!waiter) return;
    if (waiter.timer) clearTimeout(waiter.timer);
    waiter.timer = setTimeout(() => this.kill(`did not answer ${waiter.method} within ${Math.round(timeoutMs / 1000)} s (hung)`), timeoutMs);
    waiter.timer.unref();
  }

  #write(message: unknown): void {
    this.#child.stdin?.write(`${JSON.stringify(message)}\n`);
  }

  #read(chunk: string): void {
    this.#buffer += chunk;
    if (this.#buffer.length > MAX_LINE_BYTES) return this.kill(`sent a message over ${MAX_LINE_BYTES / 1024 / 1024} MB (flood)`);
    for (let newline = this.#buffer.indexOf('\n'); newline >= 0; newline = this.#buffer.indexOf('\n')) {
      const line = this.#buffer.slice(0, newline);
      this.#buffer = this.#buffer.slice(newline + 1);
      if (!line.trim()) continue;
      if (!this.#counted()) return this.kill(`sent more than ${MAX_MESSAGES_PER_SECOND} messages a second (flood)`);
      let message: { id?: string; method?: string; params?: Record<string, unknown>; result?: unknown; error?: { message?: string; kind?: string } };
      try {
        message = JSON.parse(line);
      } catch {
        return this.kill(`wrote something that is not JSON-RPC to its protocol channel: ${line.slice(0, 80)}`);
      }
      this.#dispatch(message);
      if (this.#ended) return;
    }
  }

  #counted(): boolean {
    const now = Date.now();
    if (now - this.#window.start >= 1000) this.#window = { start: now, count: 0 };
    return ++this.#window.count <= MAX_MESSAGES_PER_SECOND;
  }

  #dispatch(message: { id?: string; method?: string; params?: Record<string, unknown>; result?: unknown; error?: { message?: string; kind?: string } }): void {
    if (message.method === undefined && message.id !== undefined) {
      const waiter = this.#waiters.get(message.id);
      if (!waiter) return;
      this.#waiters.delete(message.id);
      if (waiter.timer) clearTimeout(waiter.timer);
      if (message.error) waiter.reject(new PluginCallError(String(message.error.message ?? 'failed'), message.error.kind));
      else waiter.resolve(message.result);
      return;
    }
    if (typeof message.method !== 'string') return;
    const params = message.params ?? {};
    if (message.id === undefined) {
      this.options.onNotification(message.method, params);
      return;
    }
    const id = message.id;
    this.options.onRequest(message.method, params).then(
      (result) => this.#write({ id, result: result ?? null }),
      (error: unknown) => this.#write({ id, error: { message: error instanceof Error ? error.message : String(error) } }),
    );
  }

  #end(reason: string): void {
    if (this.#ended) return;
    this.#ended = reason;
    for (const waiter of this.#waiters.values()) {
      if (waiter.timer) clearTimeout(waiter.timer);
      waiter.reject(new PluginQuarantined(`the plugin process ${reason}`));
    }
    this.#waiters.clear();
    this.options.onExit(reason);
  }
}
