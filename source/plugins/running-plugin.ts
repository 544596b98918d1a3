import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SlashCommand } from '../agent/index.js';
import type { CorePorts } from '../core/index.js';
import type { PluginManifest, PluginPermissions } from './manifest.js';
import { PluginProcess } from './plugin-process.js';
import { pluginRequests, type PluginRequests } from './plugin-requests.js';
import { registerContributions, type Registered } from './contributions.js';
import { pluginCommand, type GrantRoots } from './sandboxed-command.js';
import { readPluginSecrets, type PluginPaths } from './store.js';

export type PluginPorts = Pick<CorePorts, 'tools' | 'commands' | 'lifecycle' | 'models' | 'config' | 'env' | 'log'>;

/** What the plugin told claw it registered during `setup(ctx)`. */
export interface InitializeResult {
  tools: Array<{ name: string; description: string; inputSchema: Record<string, unknown>; effect: 'read' | 'write' | 'net' | 'exec' | 'message' }>;
  commands: Array<{ name: string; description: string }>;
  hooks: string[];
  providers: Array<{ id: string; models: Array<string | { id: string; contextWindow?: number; maxOutput?: number }> }>;
}

export interface RunningPluginOptions {
  manifest: PluginManifest;
  granted: PluginPermissions;
  paths: PluginPaths;
  runtimeFile: string;
  roots: GrantRoots;
  /** The plugin's config (`plugins.entries.<id>.config`), already validated. */
  config: Record<string, unknown>;
  callTimeoutMs: number;
  maxMemoryMb: number;
  ports: PluginPorts;
  /** The process ended on its own or was stopped for misbehaving. */
  onFailure(reason: string): void;
}

const STDERR_LINE_LIMIT = 4000;

/**
 * One enabled plugin: its sandboxed process, and its tools, commands, hooks
 * and providers registered through the ports while it runs. Secrets it was
 * given are replaced in everything that comes back from it.
 */
export class RunningPlugin {
  readonly id: string;
  #process: PluginProcess | undefined;
  #registered: Registered | undefined;
  #secrets: Array<[string, string]> = [];
  #stopping = false;
  #requests: PluginRequests | undefined;
  startedAt = 0;
  readyAt = 0;

  constructor(private readonly options: RunningPluginOptions) {
    this.id = options.manifest.id;
  }

  /** Its slash commands while it runs. */
  get commands(): readonly SlashCommand[] {
    return this.#registered?.commands ?? [];
  }

  get pid(): number | undefined {
    return this.#process?.pid;
  }

  /** Starts the process and registers what `setup` registered; throws with what went wrong. */
  async start(): Promise<InitializeResult> {
    const { manifest, granted, ports, paths } = this.options;
    this.startedAt = Date.now();
    const command = pluginCommand({
      runtimeFile: this.options.runtimeFile,
      pluginDir: paths.dir(this.id),
      permissions: granted,
      roots: this.options.roots,
      maxMemoryMb: this.options.maxMemoryMb,
    });
    const confined = ports.tools.confine(command.file, command.args, {
      cwd: paths.dir(this.id),
      writable: command.writable,
      readOnly: [],
      network: false,
      readable: command.readable,
      visible: command.visible,
    });
    if ('unavailable' in confined) throw new Error(`plugins run only inside the sandbox, and it cannot start here: ${confined.unavailable}`);
    const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: process.env.LANG ?? 'C.UTF-8' };
    for (const name of granted.env) {
      const value = ports.env[name];
      if (value !== undefined) env[name] = value;
    }
    const secrets: Record<string, string> = {};
    const stored = readPluginSecrets(paths, this.id);
    for (const name of granted.secrets) {
      const value = stored[name] ?? ports.env[name];
      if (value !== undefined) {
        secrets[name] = value;
        if (value.length >= 4) this.#secrets.push([name, value]);
      }
    }
    const requests = pluginRequests({
      id: this.id,
      paths,
      net: granted.net,
      allowPrivate: () => ports.config.current.tools.web.allowPrivate,
      timeoutMs: this.options.callTimeoutMs,
      notify: (method, params) => this.#process?.notify(method, params),
      alive: () => this.#process?.touchAll(),
    });
    this.#requests = requests;
    this.#process = new PluginProcess({
      file: confined.file,
      args: confined.args,
      env,
      cwd: paths.dir(this.id),
      callTimeoutMs: this.options.callTimeoutMs,
      onRequest: (method, params) => requests.handle(method, params),
      onNotification: (method, params) => this.#notification(method, params),
      onStderr: (text) => this.log('stderr', text.slice(0, STDERR_LINE_LIMIT)),
      onExit: (reason) => this.#exited(reason),
    });
    const result = (await this.#process.call('initialize', {
      manifest,
      entry: `${paths.dir(this.id)}/${manifest.entry}`,
      config: this.options.config,
      secrets,
    })) as InitializeResult;
    this.#registered = registerContributions(this, manifest, result, ports);
    this.readyAt = Date.now();
    return result;
  }

  /** Calls the plugin; progress and deltas for this call arrive through `listen`. */
  call(method: string, params: Record<string, unknown>): Promise<unknown> {
    if (!this.#process) return Promise.reject(new Error(`plugin ${this.id} is not running`));
    return this.#process.call(method, params);
  }

  readonly #listeners = new Map<string, (method: string, params: Record<string, unknown>) => void>();

  /** Hears the notifications about one call (`tool.progress`, `provider.delta`) until the returned function is called. */
  listen(callId: string, listener: (method: string, params: Record<string, unknown>) => void): () => void {
    this.#listeners.set(callId, listener);
    return () => this.#listeners.delete(callId);
  }

  cancel(callId: string): void {
    this.#process?.notify('cancel', { callId });
  }

  /** Keeps a streaming call's deadline from running out while it delivers. */
  touch(method: string): void {
    this.#process?.touch(method);
  }

  updateConfig(config: Record<string, unknown>): void {
    this.#process?.notify('config.update', { config });
  }

  /** Replaces the values of the plugin's secrets in text that leaves it. */
  redact(text: string): string {
    let out = text;
    for (const [name, value] of this.#secrets) out = out.split(value).join(`[redacted: ${name}]`);
    return out;
  }

  log(level: string, message: string): void {
    const file = this.options.paths.log(this.id);
    const line = `${new Date().toISOString()} ${level} ${this.redact(message).trimEnd()}\n`;
    try {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      appendFileSync(file, line, { mode: 0o600 });
    } catch (error) {
      this.options.ports.log.warn(`plugin ${this.id}: log not written: ${(error as Error).message}`);
    }
  }

  /** Stops the process and takes back everything it registered. */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#registered?.dispose();
    this.#registered = undefined;
    await this.#process?.stop();
  }

  /** Stops it at once for misbehaving (a hung call, a flood). */
  quarantine(reason: string): void {
    this.#process?.kill(reason);
  }

  #notification(method: string, params: Record<string, unknown>): void {
    if (method === 'log') {
      this.log(String(params.level ?? 'info'), String(params.message ?? ''));
      return;
    }
    if (method === 'fetch.cancel') {
      this.#requests?.cancel(String(params.stream));
      return;
    }
    const callId = typeof params.callId === 'string' ? params.callId : undefined;
    if (callId) this.#listeners.get(callId)?.(method, params);
  }

  #exited(reason: string): void {
    this.#requests?.closeAll();
    this.#registered?.dispose();
    this.#registered = undefined;
    if (this.#stopping) return;
    this.log('error', `quarantined: the process ${reason}`);
    this.options.onFailure(`the process ${reason}`);
  }
}
