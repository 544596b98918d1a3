import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { agentWorkspaceDir, type ClawConfig, type StatePaths } from '../config/index.js';
import type { CorePorts, LifecycleVerdict, MessageOutcome, Service, ServiceHealth } from '../core/index.js';
import type { ReplyRoute } from '../protocol/index.js';
import { defaultAgentId } from '../routing/index.js';
import { ownerOnlyPaths } from '../tools/index.js';
import { bundledHooksDir, discoverHooks, type HookDiscovery } from './discovery.js';
import { HookDispatcher, type HookCapabilities, type HookStatus } from './hook-dispatcher.js';
import type { HookEvent } from './hook-events.js';
import { WebhookRunLog } from './webhooks/run-log.js';
import { WEBHOOK_CHANNEL, WebhookRoutes } from './webhooks/webhook-routes.js';
import { ensureWebhookTokenSync } from './webhooks/webhook-token.js';

export interface HooksServiceOptions {
  paths: StatePaths;
  capabilities: HookCapabilities;
  /** The gateway token, which the webhook token must never equal. */
  gatewayToken?: () => string | undefined;
  /** Default: the install's top-level `hooks/` folder. */
  bundledDir?: string;
  /** Default: `~/.claw/hooks` (the state dir's `hooks/`). */
  userDir?: string;
  parentEnv?: NodeJS.ProcessEnv;
}

/** Where hooks are found for a config; by name, `<state>/hooks` wins over bundled, and both over `<workspace>/hooks` (discovery.ts). */
export function hookRoots(
  config: ClawConfig,
  paths: StatePaths,
  options: Pick<HooksServiceOptions, 'bundledDir' | 'userDir'> = {},
): { workspace: string; user: string; bundled: string } {
  const agent = defaultAgentId(config);
  const workspace = agentWorkspaceDir(config, paths, agent);
  return { workspace: join(workspace, 'hooks'), user: options.userDir ?? join(paths.root, 'hooks'), bundled: options.bundledDir ?? bundledHooksDir() };
}

/** What hooks and webhooks use of the daemon. */
export type HooksPorts = Pick<
  CorePorts,
  'clock' | 'log' | 'lifecycle' | 'config' | 'inbound' | 'outbound' | 'turns' | 'systemEvents' | 'models' | 'tools' | 'workspaces'
>;

/**
 * Lifecycle hooks and webhooks as one daemon service: discovers HOOK.md
 * folders, subscribes their handlers to the lifecycle (the gated events wait
 * for their answer), and serves the `/hooks/*` HTTP routes. Discovery is not
 * on the way to ready: it runs once the gateway listens, and the lifecycle
 * holds every event until it is done, so none runs without its hooks.
 */
export class HooksService implements Service {
  readonly name = 'hooks';
  readonly runs: WebhookRunLog;
  #core: HooksPorts | undefined;
  #dispatcher: HookDispatcher | undefined;
  #routes: WebhookRoutes | undefined;
  #discovery: HookDiscovery = { hooks: [], invalid: [], shadowed: [] };
  #unsubscribe: Array<() => void> = [];
  #listening: Array<() => void> = [];
  #token: string | undefined;
  /** The first discovery, started by warm() or by the first lifecycle event, whichever comes first. */
  #discovered: Promise<void> | undefined;
  /** The reloads asked for, one after another; one asked for later supersedes those still waiting. */
  #reloading: Promise<void> = Promise.resolve();
  #generation = 0;
  #loaded = false;
  #failure: string | undefined;
  #stopped = false;

  constructor(private readonly options: HooksServiceOptions) {
    this.runs = new WebhookRunLog(join(options.paths.root, 'hooks', 'runs.jsonl'));
  }

  start(core: HooksPorts): void {
    this.#core = core;
    // Started before the journal's recovery re-runs webhook messages, so their outcomes reach the run log too.
    this.#unsubscribe.push(core.turns.onOutcome(WEBHOOK_CHANNEL, (outcome) => this.#finished(core, outcome)));
    this.#dispatcher = new HookDispatcher({
      clock: core.clock,
      log: core.log,
      capabilities: this.options.capabilities,
      stateDir: this.options.paths.root,
      ...(this.options.parentEnv ? { parentEnv: this.options.parentEnv } : {}),
      sandbox: {
        confine: (command, policy) => core.tools.confine('/bin/sh', ['-c', command], policy),
        workspace: () => {
          const dir = core.workspaces.dir(defaultAgentId(core.config.current));
          return { dir, readOnly: ownerOnlyPaths(dir) };
        },
      },
    });
    core.lifecycle.until(() => this.discovered());
    this.#unsubscribe.push(
      core.config.onChange((changed) => {
        if (!changed.some((key) => key === 'hooks' || key.startsWith('hooks.') || key.startsWith('agents'))) return;
        // The config store waits for this before it reports the reload, so whoever waits for that sees the new hooks.
        return this.reload();
      }),
    );
    this.#routes = new WebhookRoutes({
      config: () => core.config.current.hooks,
      defaultAgentId: () => defaultAgentId(core.config.current),
      inbound: core.inbound,
      clock: core.clock,
      log: core.log,
      token: () => this.token(),
      runs: this.runs,
      queueSystemEvent: (agentId, event) => core.systemEvents.queue(agentId, event, false),
      modelProblem: (ref) => core.models.problem(ref),
      ownerChats: () => core.outbound.ownerChats(),
    });
    if (core.config.current.hooks.webhooks.enabled) this.token();
  }

  /** The hooks' background start-up: their folders are read once the gateway listens. */
  warm(): Promise<void> {
    return this.discovered();
  }

  /** Resolves once the hook folders have been read at least once (and starts that if nothing has yet). */
  discovered(): Promise<void> {
    this.#discovered ??= this.#generation > 0 ? this.#settled() : this.reload();
    return this.#discovered;
  }

  /**
   * Discovers hook folders again and applies the current config. Reloads run
   * one after another and only the latest one's result is applied. Never
   * rejects: a folder that cannot be read is logged and shown by health.
   */
  reload(): Promise<void> {
    const generation = ++this.#generation;
    this.#reloading = this.#reloading
      .then(() => (generation === this.#generation ? this.#reloadNow() : undefined))
      .catch((error: unknown) => this.#core?.log.warn(`hooks: reload failed: ${error instanceof Error ? error.message : String(error)}`));
    return this.#settled();
  }

  /** Waits for the reloads asked for so far, including those asked for while waiting. */
  async #settled(): Promise<void> {
    let last: Promise<void> | undefined;
    while (last !== this.#reloading) {
      last = this.#reloading;
      await last;
    }
  }

  async #reloadNow(): Promise<void> {
    const core = this.#core;
    if (!core || !this.#dispatcher || this.#stopped) return;
    let discovery: HookDiscovery;
    try {
      discovery = await discoverHooks(hookRoots(core.config.current, this.options.paths, this.options));
    } catch (error) {
      this.#failure = error instanceof Error ? error.message : String(error);
      core.log.warn(`hooks not loaded: ${this.#failure}`);
      return;
    } finally {
      this.#loaded = true;
    }
    if (this.#stopped) return;
    this.#failure = undefined;
    // The config of now, not of when the folders were first read: a change meanwhile queued another reload anyway.
    const config = core.config.current;
    this.#discovery = discovery;
    for (const bad of discovery.invalid) core.log.warn(`hook not loaded: ${bad.error}`);
    this.#dispatcher.load(discovery.hooks, config.hooks);
    // Only events some hook wants are listened to, so a gated path without hooks never waits.
    for (const unsubscribe of this.#listening) unsubscribe();
    this.#listening = this.#dispatcher.events().map((event) => core.lifecycle.on(event, (payload) => this.#dispatch(event, payload)));
  }

  /** The webhook token, generated on first use. */
  token(): string {
    if (!this.#token) {
      this.#token = ensureWebhookTokenSync(this.options.paths, this.options.gatewayToken?.());
      this.#core?.log.addSecret(this.#token);
    }
    return this.#token;
  }

  /** Answers `/hooks/*`; false for any other path. */
  http(req: IncomingMessage, res: ServerResponse, path: string): boolean {
    if (!this.#routes) return false;
    return this.#routes.handle(req, res, path);
  }

  /** The hooks as of the last discovery; `hooks.list` waits for the first one (`discovered()`). */
  status(): { hooks: HookStatus[]; invalid: HookDiscovery['invalid']; shadowed: HookDiscovery['shadowed'] } {
    return { hooks: this.#dispatcher?.status() ?? [], invalid: this.#discovery.invalid, shadowed: this.#discovery.shadowed };
  }

  health(): ServiceHealth {
    if (this.#failure) return { ok: true, detail: `hooks not loaded: ${this.#failure} (fix it, then save claw.json or restart)` };
    if (!this.#loaded) return { ok: true, detail: 'hook folders not read yet (they are once the gateway listens)' };
    const hooks = this.#dispatcher?.status() ?? [];
    const running = hooks.filter((hook) => hook.enabled && hook.unmet.length === 0).length;
    const failing = hooks.filter((hook) => hook.lastError).length;
    return {
      ok: true,
      detail: `${running} hook(s) active${failing ? `, ${failing} with a recent error (claw hooks list)` : ''}${this.#discovery.invalid.length ? `, ${this.#discovery.invalid.length} invalid (claw hooks check)` : ''}`,
    };
  }

  stop(): void {
    this.#stopped = true;
    for (const unsubscribe of [...this.#listening, ...this.#unsubscribe]) unsubscribe();
    this.#listening = [];
    this.#unsubscribe = [];
  }

  async #dispatch(event: HookEvent, payload: unknown): Promise<LifecycleVerdict[]> {
    const answers = await this.#dispatcher!.dispatch(event, payload as never);
    return answers.map(({ hook, result }) => ({ ...result, source: hook }));
  }

  /** A webhook turn ended: its run is recorded, and its reply goes on to the chat the mapping named. */
  async #finished(core: HooksPorts, outcome: MessageOutcome): Promise<void> {
    const run = this.runs.finished(outcome.messageId, outcome.runId, outcome.status, outcome.text, core.clock.now());
    if (!run?.deliverTo) return;
    const onward: ReplyRoute = { channel: run.deliverTo.channel, peer: { kind: 'direct', id: run.deliverTo.to } };
    await core.outbound.deliver(onward, outcome);
  }
}
