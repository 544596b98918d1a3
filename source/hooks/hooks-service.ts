import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { agentWorkspaceDir, type ClawConfig, type Clock, type StatePaths } from '../config/index.js';
import type { Core, LifecycleVerdict, OutboundPort, OutboundReply, Service, ServiceHealth } from '../core/index.js';
import type { ReplyRoute } from '../protocol/index.js';
import { modelProblem } from '../providers/index.js';
import { defaultAgentId } from '../routing/index.js';
import { bundledHooksDir, discoverHooksSync, type HookDiscovery } from './discovery.js';
import { HookDispatcher, type HookCapabilities, type HookStatus } from './hook-dispatcher.js';
import type { HookEvent } from './hook-events.js';
import { WebhookRunLog } from './webhooks/run-log.js';
import { WEBHOOK_CHANNEL, WebhookRoutes } from './webhooks/webhook-routes.js';
import { ensureWebhookTokenSync } from './webhooks/webhook-token.js';

export interface HooksServiceOptions {
  paths: StatePaths;
  /** Built before recovery re-runs journalled webhook messages, so their outcomes reach the run log. */
  outbound: OutboundPort;
  clock: Clock;
  capabilities: HookCapabilities;
  /** The gateway token, which the webhook token must never equal. */
  gatewayToken?: () => string | undefined;
  /** Default: the install's top-level `hooks/` folder. */
  bundledDir?: string;
  /** Default: `~/.claw/hooks` (the state dir's `hooks/`). */
  userDir?: string;
  parentEnv?: NodeJS.ProcessEnv;
}

/** Where hooks are found for a config: `<workspace>/hooks` > `<state>/hooks` > bundled. */
export function hookRoots(
  config: ClawConfig,
  paths: StatePaths,
  options: Pick<HooksServiceOptions, 'bundledDir' | 'userDir'> = {},
): { workspace: string; user: string; bundled: string } {
  const agent = defaultAgentId(config);
  const workspace = agentWorkspaceDir(config, paths, agent);
  return { workspace: join(workspace, 'hooks'), user: options.userDir ?? join(paths.root, 'hooks'), bundled: options.bundledDir ?? bundledHooksDir() };
}

/**
 * Lifecycle hooks and webhooks as one daemon service: discovers HOOK.md
 * folders, subscribes their handlers to the lifecycle (the gated events wait
 * for their answer), and serves the `/hooks/*` HTTP routes.
 */
export class HooksService implements Service {
  readonly name = 'hooks';
  readonly runs: WebhookRunLog;
  #core: Core | undefined;
  #dispatcher: HookDispatcher | undefined;
  #routes: WebhookRoutes | undefined;
  #discovery: HookDiscovery = { hooks: [], invalid: [], shadowed: [] };
  #unsubscribe: Array<() => void> = [];
  #listening: Array<() => void> = [];
  #token: string | undefined;

  constructor(private readonly options: HooksServiceOptions) {
    this.runs = new WebhookRunLog(join(options.paths.root, 'hooks', 'runs.jsonl'));
    this.#unsubscribe.push(options.outbound.register(WEBHOOK_CHANNEL, { deliver: (route, reply) => this.#delivered(route, reply) }));
  }

  start(core: Core): void {
    this.#core = core;
    this.#dispatcher = new HookDispatcher({
      clock: core.clock,
      log: core.log,
      capabilities: this.options.capabilities,
      stateDir: this.options.paths.root,
      ...(this.options.parentEnv ? { parentEnv: this.options.parentEnv } : {}),
    });
    this.reload();
    this.#unsubscribe.push(
      core.config.onChange((changed) => {
        if (changed.some((key) => key === 'hooks' || key.startsWith('hooks.') || key.startsWith('agents'))) this.reload();
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
      queueSystemEvent: (agentId, event) => core.schedule.queueSystemEvent(agentId, event, false),
      modelProblem: (ref) => modelProblem(core.providers, ref),
    });
    if (core.config.current.hooks.webhooks.enabled) this.token();
  }

  /** Discovers hook folders again and applies the current config. */
  reload(): void {
    const core = this.#core;
    if (!core || !this.#dispatcher) return;
    const config = core.config.current;
    this.#discovery = discoverHooksSync(hookRoots(config, this.options.paths, this.options));
    for (const bad of this.#discovery.invalid) core.log.warn(`hook not loaded: ${bad.error}`);
    this.#dispatcher.load(this.#discovery.hooks, config.hooks);
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

  status(): { hooks: HookStatus[]; invalid: HookDiscovery['invalid']; shadowed: HookDiscovery['shadowed'] } {
    return { hooks: this.#dispatcher?.status() ?? [], invalid: this.#discovery.invalid, shadowed: this.#discovery.shadowed };
  }

  health(): ServiceHealth {
    const hooks = this.#dispatcher?.status() ?? [];
    const running = hooks.filter((hook) => hook.enabled && hook.unmet.length === 0).length;
    const failing = hooks.filter((hook) => hook.lastError).length;
    return {
      ok: true,
      detail: `${running} hook(s) active${failing ? `, ${failing} with a recent error (claw hooks list)` : ''}${this.#discovery.invalid.length ? `, ${this.#discovery.invalid.length} invalid (claw hooks check)` : ''}`,
    };
  }

  stop(): void {
    for (const unsubscribe of [...this.#listening, ...this.#unsubscribe]) unsubscribe();
    this.#listening = [];
    this.#unsubscribe = [];
  }

  async #dispatch(event: HookEvent, payload: unknown): Promise<LifecycleVerdict[]> {
    const answers = await this.#dispatcher!.dispatch(event, payload as never);
    return answers.map(({ hook, result }) => ({ ...result, source: hook }));
  }

  async #delivered(_route: ReplyRoute, reply: OutboundReply): Promise<{ delivered: boolean; error?: string }> {
    const now = this.options.clock.now();
    const run = this.runs.finished(reply.messageId, reply.runId, reply.status, reply.text, now);
    if (!run?.deliverTo) return { delivered: true };
    const onward: ReplyRoute = { channel: run.deliverTo.channel, peer: { kind: 'direct', id: run.deliverTo.to } };
    return this.options.outbound.deliver(onward, reply);
  }
}
