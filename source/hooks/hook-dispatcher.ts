import { pathToFileURL } from 'node:url';
import type { Clock, HooksConfig, Logger } from '../config/index.js';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { HookTimeoutError, runHookCommand, shellLaunch, type CommandRun } from './command-handler.js';
import { blockingEvents, type HookEvent, type HookPayload } from './hook-events.js';
import { hookEnvironment } from './hook-env.js';
import { hookDigestSync, hookSignatureSync, type HookDefinition, type HookSource } from './hook-manifest.js';
import { readHookResult, type HookResult } from './hook-result.js';
import { unmetRequirements } from './requirements.js';

/** What an in-process handler gets besides the event. */
export interface HookContext {
  hook: string;
  /** The variables listed in hooks.entries.<name>.env (the gateway's own environment is not a hook's). */
  env: Readonly<Record<string, string>>;
  /** Aborted when the hook's time is up. */
  signal: AbortSignal;
  log(message: string): void;
  /** Saves a session's recent conversation as memory/YYYY-MM-DD-slug.md; the path written, if any. */
  saveConversationToMemory(sessionKey: string): Promise<string | undefined>;
}

export type HookCapabilities = Pick<HookContext, 'saveConversationToMemory'>;

export interface HookEventEnvelope<E extends HookEvent = HookEvent> {
  event: E;
  at: number;
  payload: HookPayload<E>;
}

type ModuleHandler = (event: HookEventEnvelope, ctx: HookContext) => unknown;

export interface HookStatus {
  name: string;
  description: string;
  source: HookSource;
  dir: string;
  events: HookEvent[];
  handler: 'module' | 'command';
  enabled: boolean;
  /** Why an enabled hook does not run here; empty when it runs. */
  unmet: string[];
  /** Why a hook that is switched on is held back: its files are not the ones enabling pinned. */
  blocked?: string;
  /** Why a command hook runs outside the exec sandbox. */
  unsandboxed?: string;
  runs: number;
  failures: number;
  lastError?: { at: number; event: HookEvent; message: string };
}

export interface HookAnswer {
  hook: string;
  result: HookResult;
}

interface LoadedHook {
  definition: HookDefinition;
  status: HookStatus;
  env: Record<string, string>;
  timeoutMs: number;
  /** A command hook's entry: whether it runs confined (`sandbox`), and with the host network. */
  sandbox: boolean;
  network: boolean;
}

/** Where a command hook runs: the exec sandbox (tools.confine) around its folder and the agent's workspace. */
export interface HookCommandSandbox {
  confine(
    command: string,
    policy: { cwd: string; writable: readonly string[]; readOnly: readonly string[]; network: boolean },
  ): CommandRun['launch'] | { unavailable: string };
  /** The workspace a hook may write (the default agent's), and the files in it that stay read-only (code and instructions). */
  workspace(): { dir: string; readOnly: readonly string[] };
}

export interface DispatcherOptions {
  clock: Clock;
  log: Logger;
  capabilities: HookCapabilities;
  /** The gateway's environment, of which a hook's process gets only the harmless part. */
  parentEnv?: NodeJS.ProcessEnv;
  stateDir: string;
  /** Confines command hooks; absent, they run as the gateway's user (and say so). */
  sandbox?: HookCommandSandbox;
}

/** Bundled hooks run unless switched off; a user's or workspace's hook only once the operator enables it. */
/** Why a hook that is switched on does not run: its folder or files are not the ones enabling pinned. */
export function hookBlocked(definition: HookDefinition, config: HooksConfig): string | undefined {
  const entry = config.entries[definition.manifest.name];
  if (!hookSwitchedOn(definition, config)) return undefined;
  const pin = entry?.pin;
  const again = `run \`claw hooks enable ${definition.manifest.name}\` to approve what is there now`;
  if (!pin) return definition.source === 'workspace' ? `a workspace hook runs only once enabled with its content pinned: ${again}` : undefined;
  if (pin.dir !== definition.dir) return `enabled for ${pin.dir}, but this one is in ${definition.dir}: ${again}`;
  if (pin.sha256 !== definition.digest) return `its files changed since it was enabled: ${again}`;
  return undefined;
}

function hookSwitchedOn(definition: HookDefinition, config: HooksConfig): boolean {
  if (!config.enabled) return false;
  return config.entries[definition.manifest.name]?.enabled ?? definition.source === 'bundled';
}

/** Whether a hook runs: switched on, and (when pinned, or from the workspace) exactly the files that were enabled. */
export function hookEnabled(definition: HookDefinition, config: HooksConfig): boolean {
  return hookSwitchedOn(definition, config) && hookBlocked(definition, config) === undefined;
}

/**
 * Runs the hooks subscribed to an event, all at once, each within its
 * timeout. A hook that throws, exits badly or times out is recorded (shown by
 * `claw hooks list`) and never fails the action that triggered it.
 */
export class HookDispatcher {
  #byEvent = new Map<HookEvent, LoadedHook[]>();
  #all: LoadedHook[] = [];
  readonly #modules = new Map<string, { version: string; handler: ModuleHandler }>();
  /** Per hook folder, the file signature last seen to hash to the enabled digest. */
  readonly #verified = new Map<string, string>();

  constructor(private readonly options: DispatcherOptions) {}

  /** Replaces the loaded set (at start and on config change); counters of hooks that stay are kept. */
  load(definitions: readonly HookDefinition[], config: HooksConfig): void {
    const previous = new Map(this.#all.map((hook) => [hook.definition.dir, hook.status]));
    const parent = this.options.parentEnv ?? process.env;
    this.#all = definitions.map((definition) => {
      const { manifest } = definition;
      const listed = config.entries[manifest.name]?.env ?? {};
      const entry = config.entries[manifest.name];
      const env = hookEnvironment(parent, listed, {
        CLAW_HOOK_NAME: manifest.name,
        CLAW_HOOK_DIR: definition.dir,
        CLAW_HOOK_DATA: this.#dataDir(manifest.name),
        CLAW_STATE_DIR: this.options.stateDir,
      });
      const enabled = hookEnabled(definition, config);
      const blocked = hookBlocked(definition, config);
      const old = previous.get(definition.dir);
      const status: HookStatus = {
        name: manifest.name,
        description: manifest.description,
        source: definition.source,
        dir: definition.dir,
        events: manifest.events,
        handler: definition.handler.kind,
        enabled,
        unmet: enabled ? unmetRequirements(manifest, { ...env, PATH: env.PATH ?? parent.PATH }) : [],
        ...(blocked ? { blocked } : {}),
        runs: old?.runs ?? 0,
        failures: old?.failures ?? 0,
        ...(old?.lastError ? { lastError: old.lastError } : {}),
      };
      const loaded: LoadedHook = {
        definition,
        status,
        env,
        timeoutMs: manifest.timeoutMs ?? config.timeoutMs,
        sandbox: entry?.sandbox ?? true,
        network: entry?.network ?? false,
      };
      const outside = definition.handler.kind === 'command' ? this.#unsandboxed(loaded) : undefined;
      if (outside) status.unsandboxed = outside;
      return loaded;
    });
    this.#byEvent = new Map();
    for (const hook of this.#all) {
      if (!hook.status.enabled || hook.status.unmet.length > 0) continue;
      for (const event of hook.definition.manifest.events) {
        const list = this.#byEvent.get(event) ?? [];
        list.push(hook);
        this.#byEvent.set(event, list);
      }
    }
  }

  events(): HookEvent[] {
    return [...this.#byEvent.keys()];
  }

  status(): HookStatus[] {
    return this.#all.map((hook) => ({ ...hook.status }));
  }

  /** Runs every hook of the event; the answers of those that answered, in load order. */
  async dispatch<E extends HookEvent>(event: E, payload: HookPayload<E>): Promise<HookAnswer[]> {
    const hooks = this.#byEvent.get(event);
    if (!hooks || hooks.length === 0) return [];
    const envelope: HookEventEnvelope<E> = { event, at: this.options.clock.now(), payload };
    const answers = await Promise.all(hooks.map((hook) => this.#runOne(hook, envelope)));
    return answers.flatMap((result, index) => (result ? [{ hook: hooks[index]!.status.name, result }] : []));
  }

  async #runOne(hook: LoadedHook, envelope: HookEventEnvelope): Promise<HookResult | undefined> {
    // The files may have changed since discovery (the agent writes to its workspace): run only what was enabled.
    if (!this.#unchanged(hook.definition)) {
      this.#hold(hook, `its files changed since they were loaded: run \`claw hooks enable ${hook.status.name}\` to approve what is there now`);
      return undefined;
    }
    hook.status.runs += 1;
    try {
      const result =
        hook.definition.handler.kind === 'command'
          ? await runHookCommand({
              command: hook.definition.handler.command,
              launch: this.#launch(hook, hook.definition.handler.command),
              cwd: hook.definition.dir,
              env: hook.env,
              input: JSON.stringify(envelope),
              timeoutMs: hook.timeoutMs,
              clock: this.options.clock,
            })
          : await this.#runModule(hook, envelope);
      if (result?.block && !blockingEvents.has(envelope.event)) {
        this.options.log.warn(`hook ${hook.status.name} asked to block ${envelope.event}, which cannot be blocked; ignored`);
        return undefined;
      }
      return result;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      hook.status.failures += 1;
      hook.status.lastError = { at: this.options.clock.now(), event: envelope.event, message };
      this.options.log.warn(`hook ${hook.status.name} failed on ${envelope.event}: ${message}`);
      return undefined;
    }
  }

  async #runModule(hook: LoadedHook, envelope: HookEventEnvelope): Promise<HookResult | undefined> {
    const handler = await this.#handlerOf(hook);
    const controller = new AbortController();
    const ctx: HookContext = {
      hook: hook.status.name,
      env: hook.env,
      signal: controller.signal,
      log: (message) => this.options.log.info(`hook ${hook.status.name}: ${message}`),
      saveConversationToMemory: (key) => this.options.capabilities.saveConversationToMemory(key),
    };
    let timer: ReturnType<Clock['setTimer']> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = this.options.clock.setTimer(() => {
        controller.abort(new HookTimeoutError(`took longer than ${hook.timeoutMs} ms`));
        reject(new HookTimeoutError(`${hook.status.name} took longer than ${hook.timeoutMs} ms and was abandoned`));
      }, hook.timeoutMs);
    });
    try {
      return readHookResult(await Promise.race([Promise.resolve().then(() => handler(envelope, ctx)), timeout]));
    } finally {
      if (timer) this.options.clock.clearTimer(timer);
    }
  }

  #dataDir(name: string): string {
    return join(this.options.stateDir, 'hook-data', name);
  }

  #unsandboxed(hook: LoadedHook): string | undefined {
    if (!hook.sandbox) return `hooks.entries.${hook.status.name}.sandbox is false: it runs as the gateway's user`;
    if (!this.options.sandbox) return 'no exec sandbox is wired in';
    const probe = this.options.sandbox.confine('true', { cwd: hook.definition.dir, writable: [], readOnly: [], network: false });
    return 'unavailable' in probe ? `no sandbox can start here (${probe.unavailable})` : undefined;
  }

  /**
   * The process a command hook starts: confined to its folder (read-only),
   * its data folder and the workspace (writable but for code and
   * instructions), without the network unless its entry grants it.
   */
  #launch(hook: LoadedHook, command: string): CommandRun['launch'] {
    const data = this.#dataDir(hook.status.name);
    mkdirSync(data, { recursive: true, mode: 0o700 });
    const sandbox = this.options.sandbox;
    if (!hook.sandbox || !sandbox) return shellLaunch(command);
    const workspace = sandbox.workspace();
    const dir = hook.definition.dir;
    const confined = sandbox.confine(command, {
      cwd: dir,
      writable: [workspace.dir, data, dir],
      readOnly: [dir, ...workspace.readOnly],
      network: hook.network,
    });
    if (!('unavailable' in confined)) return confined;
    hook.status.unsandboxed = `no sandbox can start here (${confined.unavailable})`;
    return shellLaunch(command);
  }

  /** Whether the folder still holds the files that were loaded: hashed again only when a file's signature moved. */
  #unchanged(definition: HookDefinition): boolean {
    const signature = hookSignatureSync(definition.dir);
    if (this.#verified.get(definition.dir) === signature) return true;
    const same = hookDigestSync(definition.dir) === definition.digest;
    if (same) this.#verified.set(definition.dir, signature);
    else this.#verified.delete(definition.dir);
    return same;
  }

  /** A hook whose files changed stops running (and says why) until it is enabled again. */
  #hold(hook: LoadedHook, reason: string): void {
    if (hook.status.blocked === reason) return;
    hook.status.enabled = false;
    hook.status.blocked = reason;
    for (const [event, hooks] of this.#byEvent)
      this.#byEvent.set(
        event,
        hooks.filter((other) => other !== hook),
      );
    this.options.log.warn(`hook ${hook.status.name} not run: ${reason}`);
  }

  /**
   * Imports a handler module once per content of its folder (the digest that
   * was enabled, checked before every run), never again because a file's
   * mtime moved.
   */
  async #handlerOf(hook: LoadedHook): Promise<ModuleHandler> {
    if (hook.definition.handler.kind !== 'module') throw new Error('not a module hook');
    const { path } = hook.definition.handler;
    const version = hook.definition.digest;
    const cached = this.#modules.get(path);
    if (cached?.version === version) return cached.handler;
    const loaded = (await import(`${pathToFileURL(path).href}?v=${version}`)) as { default?: unknown };
    if (typeof loaded.default !== 'function') throw new Error(`${path} must export a default function (event, ctx) => result`);
    const handler = loaded.default as ModuleHandler;
    this.#modules.set(path, { version, handler });
    return handler;
  }
}
