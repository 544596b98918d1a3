import { trackContextReports } from './context-reports.js';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AgentRuntime, CompactionPreviews, createSessionsTools, type ContextEngineFactory } from '../agent/index.js';
import { ChannelHost, type ChannelHostOptions } from '../channels/index.js';
import { readGatewayTokenSync, skillEnvSecrets, systemClock, throttle, type ClawConfig, type Clock, type Logger, type StatePaths } from '../config/index.js';
import { HooksService, type HooksServiceOptions } from '../hooks/index.js';
import { runNoticeEntry, type ContextPayload, type GatewaySnapshot, type PluginInfo, type RecoveryReport } from '../protocol/index.js';
import { createProviders, SpendGate, type Providers } from '../providers/index.js';
import { InboundJournal, LaneQueue, testRunnerFromEnv, type AcceptedRecord, type TurnRunner } from '../queue/index.js';
import { defaultAgentId, mainSessionKey, parseSessionKey } from '../routing/index.js';
import { agentWorkspaceDir, SkillsService } from '../skills/index.js';
import { SessionEviction, SessionRegistry, WriteProbe, sessionsSearchHandler, type SessionsSearchHandler } from '../sessions/index.js';
import { configuredAgentIds } from '../memory/index.js';
import { createToolsRuntime, describeExecSandbox, type ToolsRuntime } from '../tools/index.js';
import { ScheduleService } from '../schedule/index.js';
import { SubagentsService } from '../subagents/index.js';
import { agentTurnRunner } from './agent-turn-runner.js';
import type { CommandService } from './command-service.js';
import { ConfigStore } from './config-store.js';
import type { EventBus } from './event-bus.js';
import { CommandAwareInbound } from './command-inbound.js';
import { InboundService, type InboundPort } from './inbound-service.js';
import { Lifecycle } from './lifecycle.js';
import { McpMentionInbound, McpService, mcpSampler, type McpServiceOptions } from '../mcp/index.js';
import { MemoryService } from './memory-service.js';
import { Outbound } from './outbound.js';
import { ReplyDelivery } from './reply-delivery.js';
import type { Service, ServiceHealth } from './service.js';
import { saveConversationToMemory } from './session-memory.js';
import { agentHooks } from './agent-hooks.js';
import { AgentsService } from './agents-service.js';
import { BrowserService } from './browser-service.js';
import { PluginsService } from '../plugins/index.js';
import { SessionsService } from './sessions-service.js';
import { CoreSessionsToolsHost, TurnHops } from './sessions-tools-host.js';

import type { CorePorts } from './ports.js';
import { buildPorts } from './core-ports.js';
import { buildCommands } from './core-commands.js';
import { TurnHub } from './turns.js';
import { Assembly } from './assembly.js';
import { wireTurns } from './turn-wiring.js';

export interface CoreOptions {
  config: ClawConfig;
  paths: StatePaths;
  log: Logger;
  /** The wire event stream the gateway broadcasts to clients. */
  events: EventBus;
  clock?: Clock;
  /** Where provider keys and OLLAMA_HOST are read; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Replaces the agent as what runs turns (tests; CLAW_TEST_RUNNER does the same from the environment). */
  runner?: TurnRunner;
  mcp?: McpServiceOptions;
  /** Off only for benchmarks that measure the rest of the accept path without the disk's fsync. */
  journalFsync?: boolean;
  /** Where hooks are looked for and what their processes inherit (tests). */
  hooks?: Pick<HooksServiceOptions, 'bundledDir' | 'userDir' | 'parentEnv'>;
  /** Subsystems added on top of the built-ins, started after them in this order. */
  services?: readonly Service[];
  /** Context engines besides the built-ins, by name (`agents.defaults.contextEngine`): what plugins will register. */
  contextEngines?: Readonly<Record<string, ContextEngineFactory>>;
  /** The plugin process's runtime module (tests of a build point at dist's copy). */
  pluginRuntime?: string;
  /** Channel adapters and their waits (tests shorten them). */
  channels?: ChannelHostOptions;
}

const LANES_EVENT_INTERVAL_MS = 100;
const SPEND_EVENT_INTERVAL_MS = 500;
const SNAPSHOT_SESSIONS = 200;

/**
 * The daemon's composition root: every service, built once in dependency
 * order and handed to each other directly — no late binding (`construction`
 * is the order, checked as it is built). The gateway's RPC methods are thin
 * adapters over these; a new subsystem is a `Service` that gets the ports in
 * `start(ports)`, never this class.
 */
export class Core {
  readonly config: ConfigStore;
  readonly clock: Clock;
  /** Where provider keys and OLLAMA_HOST are read (setup detection too). */
  readonly env: NodeJS.ProcessEnv;
  readonly lifecycle: Lifecycle;
  readonly providers: Providers;
  /** The spend gate every model call passes, and its ledger (`claw budget`, `claw usage`, `/cost`). */
  readonly spend: SpendGate;
  readonly tools: ToolsRuntime;
  readonly agent: AgentRuntime;
  readonly memory: MemoryService;
  readonly skills: SkillsService;
  readonly sessions: SessionsService;
  /** The agents of claw.json (`claw agents list|add|remove`), changed live. */
  readonly agents: AgentsService;
  readonly lanes: LaneQueue;
  /** The one way in for every trigger; slash commands among the messages run through the registry. */
  readonly inbound: InboundPort;
  readonly #messages: InboundService;
  readonly outbound: Outbound;
  /** Typed turn events and message outcomes (`turns` port). */
  readonly turns: TurnHub;
  /** What services get in `start`: the ports, never this class. */
  readonly ports: CorePorts;
  readonly commands: CommandService;
  readonly mcp: McpService;
  readonly hooks: HooksService;
  readonly schedule: ScheduleService;
  readonly subagents: SubagentsService;
  readonly browser: BrowserService;
  /** Installed plugins, each in its own sandboxed process. */
  readonly plugins: PluginsService;
  /** Automatic compactions waiting out their preview (`compaction.decide`). */
  readonly compactionPreviews: CompactionPreviews;
  readonly channels: ChannelHost;
  /** Full-text search over every transcript of the agent (`/search`, Ctrl+F). */
  readonly search: SessionsSearchHandler;
  readonly services: readonly Service[];
  /** Every part in the order it was built, with the parts it was handed (tests read it). */
  readonly construction: ReadonlyArray<{ part: string; uses: readonly string[] }>;
  readonly #contexts = new Map<string, ContextPayload>();
  readonly #stopLanesEvent: () => void;
  readonly #stopSpendEvent: () => void;
  #unsubscribe: Array<() => void> = [];
  #unfinished: AcceptedRecord[];
  /** The last start's crash recovery, kept for `claw status` when the crash-loop guard failed a message. */
  #recovery: RecoveryReport | undefined;
  #warming: Promise<void> | undefined;
  #stopping = false;

  private constructor(
    readonly paths: StatePaths,
    readonly log: Logger,
    readonly events: EventBus,
    private readonly journal: InboundJournal,
    private readonly probe: WriteProbe,
    unfinished: AcceptedRecord[],
    options: CoreOptions,
  ) {
    this.#unfinished = unfinished;
    const { config } = options;
    const clock = options.clock ?? systemClock;
    const env = options.env ?? process.env;
    const parts = new Assembly();
    // Each part names the parts it is handed; a part used before it is built throws here, at every start and in the test.
    const store = parts.add('config', [], () => new ConfigStore(config, paths.config, log, clock));
    const lifecycle = parts.add('lifecycle', [], () => new Lifecycle(log));
    const outbound = parts.add('outbound', [], () => new Outbound(log));
    const turns = parts.add('turns', [], () => new TurnHub(log));
    // A spend warning or pause is said in the owner's main chat (kept in its transcript, never shown to the model) as well as live.
    const ownerNotice = async (agentId: string, text: string): Promise<void> => {
      const sessionKey = mainSessionKey(agentId);
      const runId = `spend:${randomUUID()}`;
      try {
        const session = await registry.open(sessionKey);
        const entryId = session.append(runNoticeEntry({ source: 'spend', text, runId }))[0]?.id;
        events.emit('chat', { runId, sessionKey, state: 'final', text, ...(entryId ? { entryId } : {}) });
      } catch (error) {
        log.warn(`spend notice not written to ${sessionKey}: ${String(error)}`);
      }
    };
    const spendEvent = throttle(clock, () => events.emit('spend', spend.summary(configuredAgentIds(store.current))), SPEND_EVENT_INTERVAL_MS);
    const spend = parts.add(
      'spend',
      ['config'],
      () =>
        new SpendGate({
          file: paths.spendLedger,
          budgets: () => store.current.budgets,
          clock,
          notify: (notice) => {
            log.warn(notice.text);
            void ownerNotice(notice.agentId ?? defaultAgentId(store.current), notice.text);
            const told = { kind: notice.kind, text: notice.text, ...(notice.sessionKey ? { sessionKey: notice.sessionKey } : {}) };
            events.emit('spend', { ...spend.summary(configuredAgentIds(store.current)), notice: told });
          },
          changed: () => spendEvent.poke(),
        }),
    );
    // Every model call of the daemon (turns, compaction, memory flush, MCP sampling) passes the spend gate.
    const providers = parts.add('providers', ['spend'], () =>
      spend.wrap(
        createProviders({
          config,
          paths,
          clock,
          onCooldowns: (cooldowns) => events.emit('cooldowns', { cooldowns }),
          ...(options.env ? { env: options.env } : {}),
        }),
      ),
    );
    const skills = parts.add(
      'skills',
      [],
      () =>
        new SkillsService({
          config,
          paths,
          workspaceDir: (agentId) => agentWorkspaceDir(config, paths, agentId),
          clock,
          onError: (error) => log.warn(`skills: ${String(error)}`),
        }),
    );
    const memory = parts.add('memory', [], () => new MemoryService(config, paths, log));
    const tools = parts.add('tools', ['skills', 'memory'], () =>
      createToolsRuntime({
        config,
        paths,
        clock,
        readRoots: (agentId) => skills.readRoots(agentId),
        agentEnv: (agentId) => skills.execEnv(agentId),
        // Skill env values are secrets the operator handed to exec: never shown to the model.
        secrets: skillEnvSecrets(config.skills).map((value) => ({ name: 'skill env', value })),
        ...(options.env ? { env: options.env } : {}),
        warn: (message) => log.warn(message),
        memoryIndex: (agentId) => memory.indexFor(agentId),
      }),
    );
    tools.registry.register(skills.tool());
    const previews = new CompactionPreviews(clock, () => store.current.context.compaction.previewSeconds, {
      requested: (preview) => events.emit('compaction.preview', preview),
      resolved: (payload) => events.emit('compaction.preview.resolved', payload),
    });
    this.compactionPreviews = previews;
    const schedule = parts.add('schedule', [], () => new ScheduleService());
    const subagents = parts.add('subagents', [], () => new SubagentsService());
    const agent = parts.add(
      'agent',
      ['providers', 'tools', 'skills', 'subagents', 'lifecycle'],
      () =>
        new AgentRuntime({
          previewCompaction: (plan, signal) => previews.ask(plan, signal),
          config,
          paths,
          providers,
          registry: tools.registry,
          skills,
          approvals: (sessionKey) =>
            subagents.approvalGate(tools.inbox.gate(parseSessionKey(sessionKey)?.agentId ?? defaultAgentId(config), sessionKey), sessionKey),
          deniedTools: (sessionKey) => subagents.deniedTools(sessionKey),
          clock,
          hooks: agentHooks(lifecycle),
          publishContext: (payload) => {
            this.#contexts.set(payload.sessionKey, payload);
            events.emit('context', payload);
          },
          ...(options.contextEngines ? { contextEngines: options.contextEngines } : {}),
        }),
    );
    const hops = new TurnHops();
    const runner = subagents.runner(
      hops.track(
        options.runner ??
          testRunnerFromEnv() ??
          agentTurnRunner(agent, (key) => {
            const found = registry.get(key);
            return found && { agentId: found.agentId, sessionId: found.entry.sessionId, spawnedBy: found.entry.spawnedBy };
          }),
      ),
    );
    const registry = parts.add('session registry', [], () => new SessionRegistry({ paths, config, clock, warn: (message) => log.warn(message) }));
    const replies = parts.add(
      'reply delivery',
      ['outbound', 'turns', 'lifecycle', 'session registry'],
      () => new ReplyDelivery({ journal, outbound, turns, lifecycle, events, sessions: registry, log }),
    );
    const lanes = parts.add(
      'lanes',
      ['agent', 'subagents', 'session registry', 'reply delivery', 'turns'],
      () =>
        new LaneQueue({
          config: config.queue,
          runner,
          clock,
          openSession: (key) => registry.open(key),
          onOutcome: (message, status, detail) => replies.outcome(message, status, detail),
          emit: turns.emitter,
          warn: (message) => log.warn(message),
        }),
    );
    const lanesEvent = throttle(clock, () => events.emit('lanes', lanes.snapshot()), LANES_EVENT_INTERVAL_MS);
    const stopLanesChanges = lanes.onChange(() => lanesEvent.poke());
    this.#stopLanesEvent = () => {
      stopLanesChanges();
      lanesEvent.cancel();
    };
    const sessions = parts.add('sessions', ['session registry', 'lanes', 'lifecycle'], () => new SessionsService(registry, lanes, events, lifecycle));
    this.#unsubscribe.push(...wireTurns(turns, events, lifecycle, sessions));
    const agents = parts.add('agents', ['config', 'sessions', 'providers'], () => new AgentsService(store, paths, sessions, providers));
    const messages = parts.add(
      'messages',
      ['lanes', 'session registry', 'lifecycle', 'reply delivery', 'sessions'],
      () =>
        new InboundService({
          config,
          journal,
          lanes,
          sessions: registry,
          lifecycle,
          refused: (message, reason) => replies.refused(message, reason),
          sessionChanged: (key, reason) => sessions.changed(key, reason),
          redeliver: (message, text) => replies.redeliver(message, text),
          failed: (message, reason) => replies.outcome(message, 'failed', { reason }),
          accepted: (message, sessionKey) => {
            if (message.background) return;
            events.emit('message.accepted', {
              sessionKey,
              messageId: message.messageId,
              text: message.text,
              channel: message.channel,
              ...(message.channel === 'tui' && message.senderId ? { clientId: message.senderId } : {}),
              ...(message.senderName ? { sender: message.senderName } : {}),
              at: clock.now(),
            });
          },
          warn: (message) => log.warn(message),
        }),
    );
    const sessionsHost = parts.add(
      'sessions tools',
      ['sessions', 'agent', 'providers', 'turns', 'messages'],
      () => new CoreSessionsToolsHost({ config, clock, sessions, agent, providers, turns, inbound: messages, hops }),
    );
    for (const tool of createSessionsTools(sessionsHost)) tools.registry.register(tool);
    const mcp = parts.add('mcp', ['agent', 'providers', 'tools'], () => {
      const sample = mcpSampler({ agent, providers, events, log, agentId: defaultAgentId(config), clock });
      return new McpService(config, paths, tools.registry, log, events, clock, { sample, env, ...options.mcp });
    });
    const channels = parts.add('channels', [], () => new ChannelHost(options.channels));
    const commands = parts.add(
      'commands',
      ['sessions', 'lanes', 'messages', 'lifecycle', 'schedule', 'agent', 'providers', 'skills', 'agents', 'mcp', 'channels', 'spend', 'config'],
      () =>
        buildCommands({
          config,
          clock,
          events,
          sessions,
          lanes,
          messages,
          lifecycle,
          schedule,
          agent,
          providers,
          skills,
          agents,
          mcp,
          channels,
          spend,
          store,
          configFile: paths.config,
        }),
    );
    const inbound = parts.add(
      'inbound',
      ['messages', 'commands', 'reply delivery', 'mcp'],
      () =>
        new McpMentionInbound(
          new CommandAwareInbound(messages, commands, config, events, (message, route, reply) => replies.settle(message, route, reply)),
          () => mcp.manager,
        ),
    );
    const hooks = parts.add(
      'hooks',
      ['config', 'session registry'],
      () =>
        new HooksService({
          paths,
          capabilities: { saveConversationToMemory: (key) => saveConversationToMemory(registry, key, { config: store.current, paths, clock, log }) },
          gatewayToken: () => readGatewayTokenSync(paths, env),
          ...options.hooks,
        }),
    );
    const ports = parts.add(
      'ports',
      [
        'inbound',
        'outbound',
        'turns',
        'session registry',
        'sessions',
        'lanes',
        'tools',
        'commands',
        'providers',
        'schedule',
        'agent',
        'lifecycle',
        'config',
        'spend',
      ],
      () =>
        buildPorts({
          inbound,
          outbound,
          turns,
          registry,
          sessions,
          lanes,
          tools,
          commands,
          providers,
          schedule,
          agent,
          lifecycle,
          events,
          store,
          clock,
          log,
          paths,
          env,
          spend,
        }),
    );
    const search = sessionsSearchHandler({ sessions: registry });
    this.clock = clock;
    this.env = env;
    this.config = store;
    this.lifecycle = lifecycle;
    this.outbound = outbound;
    this.turns = turns;
    this.providers = providers;
    this.spend = spend;
    this.#stopSpendEvent = () => spendEvent.cancel();
    this.skills = skills;
    this.memory = memory;
    this.tools = tools;
    this.schedule = schedule;
    this.subagents = subagents;
    this.browser = new BrowserService(tools);
    this.plugins = new PluginsService(options.pluginRuntime);
    this.agent = agent;
    this.lanes = lanes;
    this.sessions = sessions;
    this.agents = agents;
    this.#messages = messages;
    this.mcp = mcp;
    this.channels = channels;
    this.commands = commands;
    this.inbound = inbound;
    this.hooks = hooks;
    this.ports = ports;
    this.search = search;
    this.construction = parts.order;
    this.services = [
      { name: 'exec-sandbox', warm: () => tools.sandbox.prepare?.() },
      memory,
      { name: 'skills', warm: () => skills.warm(), stop: () => skills.stop() },
      mcp,
      hooks,
      schedule,
      subagents,
      channels,
      this.browser,
      this.plugins,
      new SessionEviction(),
      ...(options.services ?? []),
    ];
  }

  /** Builds every service in order, opens the journal and re-queues what a crash left unfinished. */
  static async create(options: CoreOptions): Promise<Core> {
    const clock = options.clock ?? systemClock;
    const { paths, config } = options;
    const queueDir = join(paths.root, 'queue');
    // Nothing is acknowledged while the journal's or a session store's folder refuses writes.
    const probe = new WriteProbe({ dirs: () => [queueDir, ...configuredAgentIds(config).map((id) => paths.sessionsDir(id))], clock });
    const { journal, unfinished } = await InboundJournal.open(join(queueDir, 'inbound.jsonl'), {
      clock,
      admit: () => probe.refusal(),
      ...(options.journalFsync === false ? { fsync: false } : {}),
    });
    return new Core(paths, options.log, options.events, journal, probe, unfinished, options);
  }

  /**
   * Starts the services in order, then re-queues what a crash left unfinished:
   * only once every channel has registered its outbound half can a recovered
   * reply reach its route, and every hook hear its turn.
   */
  async start(): Promise<void> {
    for (const service of this.services) await service.start?.(this.ports);
    if (this.#unfinished.length > 0) {
      const { requeued, completed, failedMessages } = await this.#messages.recover(this.#unfinished);
      this.log.info(`inbound journal: ${requeued} unfinished message(s) re-queued, ${completed} found already answered`);
      if (failedMessages.length > 0) {
        this.#recovery = { at: this.clock.now(), requeued, completed, failed: failedMessages };
        this.log.warn(`the crash-loop guard failed ${failedMessages.length} message(s) the gateway died on three times; their senders were told`);
      }
      this.#unfinished = [];
    }
    const { inbox } = this.tools;
    this.#unsubscribe.push(inbox.on((event, approval) => this.events.emit(event === 'requested' ? 'approval.requested' : 'approval.resolved', { approval })));
    this.#unsubscribe.push(this.config.onChange((changed) => this.#applyConfig(changed)));
    this.#unsubscribe.push(
      trackContextReports(
        this.events,
        this.#contexts,
        (key) => this.commands.publishContext(key),
        (m) => this.log.warn(m),
      ),
    );
    this.#unsubscribe.push(this.skills.onChange((change) => this.events.emit('skills.changed', change)));
    this.config.watch((status) => this.events.emit('config', status));
  }

  /**
   * The services' background start-up work (`Service.warm`), in order, each
   * in its own macrotask so a client's first request is answered in between.
   * Resolves once all of it is done; a failure is logged, never thrown.
   * `gateway:startup` fires last, once the gateway listens on `port`: its
   * hooks (and the HOOK.md files they come from) are not on the way to ready,
   * nor in the way of the first requests (an earlier event reads them sooner).
   */
  warm(port?: number): Promise<void> {
    this.#warming ??= (async () => {
      const started = this.clock.now();
      for (const service of this.services) {
        await new Promise((resolve) => setImmediate(resolve));
        if (this.#stopping) return;
        try {
          await service.warm?.();
        } catch (error) {
          this.log.warn(`${service.name}: background start-up failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      await this.lifecycle.emit('gateway:startup', port === undefined ? {} : { port });
      this.log.info(`background start-up done in ${this.clock.now() - started} ms`);
    })();
    return this.#warming;
  }

  /** False while the state dir refuses writes: `/readyz` answers 503 (health stays ok, so a supervisor does not restart over a full disk). */
  ready(): boolean {
    return this.probe.status().ok;
  }

  health(): Record<string, ServiceHealth> {
    const checks: Record<string, ServiceHealth> = {
      sessions: { ok: true, detail: `${this.lanes.runningCount()} running, ${this.journal.unfinishedCount()} unfinished` },
      approvals: { ok: true, detail: `${this.tools.inbox.list('pending').length} pending approvals` },
      // An unsandboxed exec is loud but not unhealthy: every command then asks, and a restart would not fix it.
      exec: { ok: true, detail: describeExecSandbox(this.tools.sandbox).text },
    };
    const config = this.config.status();
    if (config.state !== 'ok')
      checks.config = {
        ok: true,
        detail: config.state === 'invalid' ? 'claw.json is invalid; running the last good config' : `restart needed for ${config.restartNeeded.join(', ')}`,
      };
    for (const service of this.services) {
      const health = service.health?.();
      if (health) checks[service.name] = health;
    }
    return checks;
  }

  snapshot(): GatewaySnapshot {
    const sessions = this.sessions.list(undefined, SNAPSHOT_SESSIONS);
    return {
      sessions,
      lanes: this.lanes.snapshot(),
      approvals: this.tools.inbox.list('pending'),
      context: sessions.flatMap((session) => this.#contexts.get(session.key) ?? []),
      config: this.config.status(),
      mcpElicitations: this.mcp.elicitations.pending(),
      channels: this.channels.status(),
      cooldowns: this.providers.cooldowns(),
      ...(this.#recovery ? { recovery: this.#recovery } : {}),
      // The ledger opens with the first model call: a gateway that never made one has nothing to show and loads no SQLite for it.
      ...(existsSync(this.paths.spendLedger) ? { spend: this.spend.summary(configuredAgentIds(this.config.current)) } : {}),
      ...(this.schedule.started ? { schedule: this.schedule.glance() } : {}),
      ...(this.subagents.started ? { subagents: this.subagents.tree() } : {}),
      ...(this.browser.tabs().length > 0 ? { browserTabs: this.browser.tabs() } : {}),
      ...this.#pluginsSnapshot(),
      ...(this.compactionPreviews.pending().length > 0 ? { compactionPreviews: this.compactionPreviews.pending() } : {}),
    };
  }

  #pluginsSnapshot(): { plugins?: PluginInfo[] } {
    try {
      const plugins = this.plugins.list();
      return plugins.length > 0 ? { plugins } : {};
    } catch (error) {
      // An unreadable plugins.lock or grants.json must not keep clients from attaching; `claw plugins list` says what is wrong.
      this.log.warn(`plugins: ${error instanceof Error ? error.message : String(error)}`);
      return {};
    }
  }

  /** Lets running turns finish until the deadline, then persists what is open. */
  async drain(deadline: number, reason: string): Promise<void> {
    await this.lifecycle.emit('gateway:shutdown', { reason });
    await Promise.all(this.services.map((service) => service.drain?.(deadline)));
    await this.lanes.drain(deadline);
    await Promise.all([this.sessions.registry.flush(), this.journal.flush()]);
  }

  /** Stops in reverse order of construction. */
  async stop(): Promise<void> {
    // A watcher armed by warm() after its service stopped would outlive the core.
    this.#stopping = true;
    await this.#warming;
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    this.#unsubscribe = [];
    this.config.close();
    this.#stopLanesEvent();
    for (const service of [...this.services].reverse()) await service.stop?.();
    await this.sessions.registry.close();
    await this.journal.close();
    this.probe.stop();
    this.search.close();
    await this.tools.close();
    this.#stopSpendEvent();
    this.spend.close();
  }

  async #applyConfig(changed: readonly string[]): Promise<void> {
    const touches = (...sections: string[]): boolean => changed.some((key) => sections.some((s) => key === s || key.startsWith(`${s}.`)));
    if (touches('models', 'agents')) this.providers.reload();
    if (touches('mcpServers')) await this.mcp.reload();
    if (touches('memory', 'agents')) await this.memory.reload();
  }
}

export const createCore = (options: CoreOptions): Promise<Core> => Core.create(options);
