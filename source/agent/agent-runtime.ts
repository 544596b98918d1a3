import { hostname, platform, release } from 'node:os';
import { agentWorkspaceDir, type ClawConfig, type StatePaths, type Clock } from '../config/index.js';
import { leastTrusted, principalKind, type ContextPayload } from '../protocol/index.js';
import { spendKindOf, type Providers, type SpendCharge, type ThinkingLevel, type ToolSchema } from '../providers/index.js';
import { allowedToolNames, policyLayers, sanitizeNamePart, type ApprovalGate, type PolicyLayer, type ToolRegistry, type ToolResult } from '../tools/index.js';
import { withHookBootstrap, type BootstrapFileReport, type SessionKind } from './bootstrap.js';
import type { AgentHooks } from './turn-hooks.js';
import { BootstrapCache } from './bootstrap-cache.js';
import { buildSystemPrompt, promptTime, type PromptSection, type SystemPrompt } from './system-prompt.js';
import { memoryFlushPrompt } from './compaction/index.js';
import {
  CONTEXT_ENGINES,
  contextEngineFactory,
  EngineQuarantine,
  guardedEngine,
  type ContextEngine,
  type ContextEngineFactory,
  type ContextEngineOptions,
  type PreviewDecision,
  type PreviewPlan,
  type PruneState,
} from './context/index.js';
import { runMemoryFlushTurn } from './memory-flush-turn.js';
import type { SkillsPromptSnapshot, SkillsSource } from './skills-source.js';
import { DeferredTools, TOOL_SEARCH, toolSearchTool, type DeferPolicy, type ToolLimits, type ToolSelection } from './tool-search.js';
import { runTurnLoop, type TurnLoopContext } from './turn-loop.js';
import type { TurnEvents, TurnInput, TurnOutcome, TurnSession } from './turn-types.js';
import { ensureWorkspaceSync, isFirstRunSync, markFirstRunCompleteSync } from './workspace.js';

export interface AgentRuntimeDeps {
  config: ClawConfig;
  paths: StatePaths;
  providers: Providers;
  registry: ToolRegistry;
  /** The operator approval gate for a session's tool calls (per session: `session` approvals are remembered per key). */
  approvals: (sessionKey: string) => ApprovalGate;
  clock: Pick<Clock, 'now'>;
  /** The skills catalogue of an agent; without it the prompt has no skills section. */
  skills?: SkillsSource;
  /** Where `context` events go when the turn's events have no context sink (the gateway bus). */
  publishContext?: (payload: ContextPayload) => void;
  /** The lifecycle as the agent reports to it: tool calls (which may be blocked), bootstrap text, compaction. */
  hooks?: AgentHooks;
  /** Tools a session's turns never see (a sub-agent's denied tools), on top of the config's policy. */
  deniedTools?: (sessionKey: string) => readonly string[];
  /** Shows clients an automatic compaction before it runs (absent: no preview). */
  previewCompaction?: (plan: PreviewPlan, signal?: AbortSignal) => Promise<PreviewDecision>;
  /** Engines besides the built-ins (plugins), by name. */
  contextEngines?: Readonly<Record<string, ContextEngineFactory>>;
}

export interface ContextReport {
  model: string | undefined;
  workspaceDir: string;
  bootstrap: BootstrapFileReport[];
  sections: PromptSection[];
  systemPromptChars: number;
  toolSchemaChars: number;
  tools: string[];
  /** MCP tools waiting behind tool_search (they would not fit every request), and what they would cost. */
  deferredTools: { count: number; chars: number };
  /** Deferred tools tool_search has loaded for this session (sent now). */
  loadedTools: number;
  /** Tools that may not wait behind tool_search (`defer: never`), past the API's count: not sent. */
  droppedTools: string[];
  /** Registered tools this session's turns do not get, and the policy level that took each away. */
  withheld: Array<{ name: string; reason: string }>;
  /** Who asked for the latest turn: its kind is the tool profile (`tools.profiles.<kind>`). */
  principal: string;
  /** Which skills the prompt lists, which it left out for its budget, and which were not offered and why. */
  skills: SkillsPromptSnapshot;
}

/**
 * `/mode plan`: the turn plans, it does not act — no tool that writes,
 * runs a command, sends a message, starts a session or a browser, or
 * schedules anything; reading, searching and fetching stay.
 */
const PLAN_MODE_LAYER: PolicyLayer = {
  deny: [
    'group:runtime',
    'group:messaging',
    'group:automation',
    'group:plugins',
    'group:mcp',
    'write',
    'edit',
    'apply_patch',
    'browser',
    'sessions_send',
    'sessions_spawn',
  ],
  label: 'plan mode (/mode ask acts again)',
};

const NO_SKILLS: SkillsPromptSnapshot = { block: '', form: 'none', listed: [], omitted: [], notOffered: [] };

/** A catalogue the session cannot open is only tokens: without `skill` or `read` it leaves the prompt, and the report says why. */
function loadableSkills(snapshot: SkillsPromptSnapshot, tools: readonly ToolSchema[]): SkillsPromptSnapshot {
  if (snapshot.listed.length === 0 || tools.some((tool) => tool.name === 'skill' || tool.name === 'read')) return snapshot;
  const reason = 'this session has neither the skill nor the read tool';
  return { ...NO_SKILLS, notOffered: [...snapshot.notOffered, ...[...snapshot.listed, ...snapshot.omitted].map((name) => ({ name, reason }))] };
}

export interface LastError {
  at: number;
  message: string;
  hint?: string;
}

const SUBAGENT_OR_CRON: ReadonlySet<SessionKind> = new Set(['subagent', 'cron']);

/** Sessions whose pruning decisions are remembered between turns. */
const PRUNE_STATES_KEPT = 500;

// Resolving it builds an Intl formatter (milliseconds); the zone of a running daemon does not change.
/** Whom a session's model calls are charged to: what the session says, else its own key and kind. */
function chargeOf(session: TurnSession): Omit<SpendCharge, 'runId' | 'turnAllowance'> {
  return session.charge ?? { agentId: session.agentId, sessionKey: session.key, kind: spendKindOf(session.principal, session.kind) };
}

let timeZone: string | undefined;
/**
 * Asked at the first prompt, not at import: the first Intl.DateTimeFormat of
 * a process pages in ICU's locale and zone data (about 8 MB of RSS), which an
 * idle gateway otherwise never needs.
 */
function localTimeZone(): string {
  timeZone ??= Intl.DateTimeFormat().resolvedOptions().timeZone;
  return timeZone;
}

/**
 * The agent runtime: turns a session and new messages into a streamed,
 * tool-using turn. The gateway owns one and adapts the lane queue to runTurn.
 */
export class AgentRuntime {
  readonly #lastErrors = new Map<string, LastError>();
  readonly #bootstrap = new BootstrapCache();
  readonly #preparedWorkspaces = new Set<string>();
  /** Each recent session's pruning decisions (most recently used last). */
  readonly #pruning = new Map<string, PruneState>();
  /** Context engines that threw: the default stands in for them until the gateway restarts. */
  readonly #quarantine = new EngineQuarantine();
  /** Workspaces whose first turn is known to be done: no file read per turn. */
  readonly #bootstrapped = new Set<string>();

  readonly #deferred = new DeferredTools();

  constructor(private readonly deps: AgentRuntimeDeps) {
    // One runtime per registry in a gateway; a registry shared by a second runtime keeps the first one's search.
    if (!deps.registry.get(TOOL_SEARCH)) deps.registry.register(toolSearchTool(this.#deferred));
  }

  workspaceDir(agentId: string): string {
    return agentWorkspaceDir(this.deps.config, this.deps.paths, agentId);
  }

  /** The model a session would use now, or undefined when nothing is configured. */
  async resolveModel(session: { agentId: string; model?: string | undefined }): Promise<string | undefined> {
    const entry = this.deps.config.agents.list.find((agent) => agent.id === session.agentId);
    return session.model ?? entry?.model ?? this.deps.config.agents.defaults.model ?? (await this.deps.providers.defaultModel());
  }

  /**
   * Runs `command` through the exec tool as the session's owner asked for it
   * (`/sh`, `!` in the TUI): the same sandbox, policy and approvals as the
   * agent's own calls. `output` is what it printed, as it streamed.
   */
  async runShell(session: Pick<TurnSession, 'key' | 'agentId' | 'kind'>, command: string): Promise<{ result: ToolResult; output: string }> {
    let output = '';
    const result = await this.deps.registry.invoke(
      'exec',
      { command },
      {
        agentId: session.agentId,
        principal: 'owner',
        sessionKey: session.key,
        sessionType: session.kind,
        workspaceDir: this.workspaceDir(session.agentId),
        signal: new AbortController().signal,
        onUpdate: (text) => {
          output += text;
        },
        approvals: this.deps.approvals(session.key),
      },
    );
    return { result, output };
  }

  /** The thinking level a turn of the session uses: its own, else its agent's, else the defaults'. */
  resolveThinking(session: { agentId: string; thinking?: ThinkingLevel | undefined }): ThinkingLevel {
    const entry = this.deps.config.agents.list.find((agent) => agent.id === session.agentId);
    return session.thinking ?? entry?.thinking ?? this.deps.config.agents.defaults.thinking;
  }

  lastError(sessionKey: string): LastError | undefined {
    return this.#lastErrors.get(sessionKey);
  }

  /** The policy levels a turn of this session gets (global, agent, session type, role, who asked, the session's own denials). */
  #layers(session: Pick<TurnSession, 'kind' | 'agentId' | 'principal' | 'actingFor' | 'approvalMode'> & { key?: string }): PolicyLayer[] {
    const { tools, agents } = this.deps.config;
    const agentLayer = agents.list.find((agent) => agent.id === session.agentId)?.tools;
    const scope = { agentId: session.agentId, sessionType: session.kind, principalKind: principalKind(session.principal ?? 'owner') };
    const layers = policyLayers(tools, scope, agentLayer);
    // Children and cron runs act on no one's behalf: no user-messaging tools.
    if (SUBAGENT_OR_CRON.has(session.kind)) layers.push({ deny: ['group:messaging'] });
    const denied = session.key !== undefined ? this.deps.deniedTools?.(session.key) : undefined;
    if (denied && denied.length > 0) layers.push({ deny: [...denied] });
    if (session.actingFor) layers.push(...this.#inherited(session.actingFor, session.kind));
    if (session.approvalMode === 'plan') layers.push(PLAN_MODE_LAYER);
    return layers;
  }

  /**
   * A child gets nothing its line would not: for each agent it acts for, a
   * level denying every tool that agent's policy, with the principal of
   * the turn that spawned the line, does not give.
   */
  #inherited(actingFor: NonNullable<TurnSession['actingFor']>, sessionType: string): PolicyLayer[] {
    const { tools, agents } = this.deps.config;
    const registered = this.deps.registry.list();
    const kind = principalKind(actingFor.principal);
    return actingFor.agents.flatMap((agentId) => {
      const agentLayer = agents.list.find((agent) => agent.id === agentId)?.tools;
      const theirs = allowedToolNames(registered, policyLayers(tools, { agentId, sessionType, principalKind: kind }, agentLayer));
      const deny = registered.filter((tool) => !theirs.has(tool.name)).map((tool) => tool.name);
      return deny.length > 0 ? [{ deny, label: `acts for agent ${agentId}, asked by ${actingFor.principal}` }] : [];
    });
  }

  #allowedTools(session: Pick<TurnSession, 'kind' | 'agentId' | 'principal' | 'actingFor'> & { key?: string }): ToolSchema[] {
    return this.deps.registry.effective(this.#layers(session)).map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.parameters }));
  }

  /** The API and window of a model, for deciding whether every tool fits a request. */
  #limits(model: string): ToolLimits {
    const servers = this.deps.config.mcpServers;
    const deferOf = (toolName: string): DeferPolicy => {
      const server = Object.keys(servers).find((name) => toolName.startsWith(`mcp__${sanitizeNamePart(name)}__`));
      return server ? servers[server]!.defer : 'auto';
    };
    try {
      const resolved = this.deps.providers.resolveModel(model);
      return { api: resolved.api, window: resolved.contextWindow, deferOf };
    } catch {
      return { api: 'openai', window: 128_000, deferOf };
    }
  }

  /** What a model call of this session sends: every allowed tool, or, when they would not fit, the MCP ones behind tool_search. */
  #tools(session: Pick<TurnSession, 'kind' | 'agentId' | 'principal' | 'actingFor'> & { key?: string }, model: string): ToolSelection {
    const allowed = this.#allowedTools(session);
    return this.#deferred.select(session.key ?? `${session.agentId}:${session.kind}`, allowed, this.#limits(model));
  }

  /** Builds the system prompt a turn of this session would get. */
  systemPrompt(
    session: Pick<TurnSession, 'agentId' | 'kind' | 'channel' | 'principal' | 'actingFor'> & { key?: string },
    model: string,
    hookText: ReadonlyArray<{ source: string; text: string }> = [],
  ): { prompt: SystemPrompt; bootstrap: BootstrapFileReport[]; tools: ToolSchema[]; selection: ToolSelection; skills: SkillsPromptSnapshot } {
    const workspaceDir = this.workspaceDir(session.agentId);
    if (!this.#preparedWorkspaces.has(workspaceDir)) {
      ensureWorkspaceSync(workspaceDir);
      this.#preparedWorkspaces.add(workspaceDir);
    }
    if (!this.#bootstrapped.has(workspaceDir) && !isFirstRunSync(workspaceDir)) this.#bootstrapped.add(workspaceDir);
    const bootstrap = withHookBootstrap(
      this.#bootstrap.load(workspaceDir, { kind: session.kind, firstRun: !this.#bootstrapped.has(workspaceDir), now: this.deps.clock.now() }),
      hookText,
    );
    const selection = this.#tools(session, model);
    const tools = selection.sent;
    const skills = loadableSkills(this.deps.skills?.snapshot(session.agentId) ?? NO_SKILLS, tools);
    const prompt = buildSystemPrompt({
      tools,
      skillsBlock: skills.block,
      runtime: {
        agentId: session.agentId,
        model,
        channel: session.channel,
        sessionKind: session.kind,
        timeZone: localTimeZone(),
        host: hostname(),
        os: `${platform()} ${release()}`,
        workspaceDir,
        now: promptTime(this.deps.clock.now()),
      },
      bootstrap,
    });
    return { prompt, bootstrap: bootstrap.files.map(({ content: _content, ...report }) => report), tools, selection, skills };
  }

  /** What agent:bootstrap hooks add for this session: reports count it as a turn would. */
  async #hookText(session: { key?: string; agentId: string }): Promise<Array<{ source: string; text: string }>> {
    if (!this.deps.hooks || session.key === undefined) return [];
    return this.deps.hooks.bootstrap({ sessionKey: session.key, agentId: session.agentId });
  }

  async contextReport(
    session: Pick<TurnSession, 'agentId' | 'kind' | 'channel' | 'model' | 'principal' | 'actingFor'> & { key?: string },
  ): Promise<ContextReport> {
    const model = await this.resolveModel(session);
    const built = this.systemPrompt(session, model ?? 'none', await this.#hookText(session));
    return {
      model,
      workspaceDir: this.workspaceDir(session.agentId),
      bootstrap: built.bootstrap,
      sections: built.prompt.sections,
      systemPromptChars: built.prompt.text.length,
      toolSchemaChars: JSON.stringify(built.tools).length,
      tools: built.tools.map((tool) => tool.name),
      deferredTools: { count: built.selection.deferred.length, chars: JSON.stringify(built.selection.deferred).length },
      loadedTools: built.selection.loaded,
      droppedTools: built.selection.dropped.map((tool) => tool.name),
      withheld: this.deps.registry
        .decisions(this.#layers(session))
        .filter((decision) => !decision.allowed)
        .map(({ name, reason }) => ({ name, reason })),
      principal: session.principal ?? 'owner',
      skills: built.skills,
    };
  }

  /**
   * The context window of a session with the model it would use now, for
   * commands (`/context`, `/compact`); undefined when no model is configured.
   */
  async contextWindow(session: TurnSession, events: TurnEvents, runId: string): Promise<ContextEngine | undefined> {
    const model = await this.resolveModel(session);
    if (!model) return undefined;
    const built = this.systemPrompt(session, model, await this.#hookText(session));
    return this.#window(session, events, runId, model, built, { charge: { ...chargeOf(session), runId } });
  }

  /** A session's pruning decisions, kept across its turns (recent sessions only: a cold cache loses nothing by starting over). */
  #pruneState(sessionKey: string): PruneState {
    let state = this.#pruning.get(sessionKey);
    if (state) this.#pruning.delete(sessionKey);
    else state = { decided: new Map() };
    this.#pruning.set(sessionKey, state);
    if (this.#pruning.size > PRUNE_STATES_KEPT) this.#pruning.delete(this.#pruning.keys().next().value!);
    return state;
  }

  #window(
    session: TurnSession,
    events: TurnEvents,
    runId: string,
    model: string,
    built: ReturnType<AgentRuntime['systemPrompt']>,
    extra: { signal?: AbortSignal; flush?: () => Promise<void>; charge?: SpendCharge } = {},
  ): ContextEngine {
    const entry = this.deps.config.agents.list.find((agent) => agent.id === session.agentId);
    const publish = this.deps.publishContext;
    const name = entry?.contextEngine ?? this.deps.config.agents.defaults.contextEngine;
    const options: ContextEngineOptions = {
      runId,
      session,
      events: this.#compactionHooks(events.context || !publish ? events : { ...events, context: publish }),
      providers: this.deps.providers,
      model,
      fallbacks: entry?.fallbacks ?? this.deps.config.agents.defaults.fallbacks,
      settings: this.deps.config.compaction,
      pruning: {
        settings: this.deps.config.context.pruning,
        state: this.#pruneState(session.key),
        now: () => this.deps.clock.now(),
        workspaceDir: this.workspaceDir(session.agentId),
      },
      recall: this.deps.config.context.recall,
      // Only a turn in the owner's own chat waits for a preview: not its memory flush, a command, a channel chat, cron or a sub-agent.
      ...(this.deps.previewCompaction && extra.flush && session.kind === 'main'
        ? { preview: (plan: PreviewPlan) => this.deps.previewCompaction!(plan, extra.signal) }
        : {}),
      system: built.prompt,
      bootstrap: built.bootstrap,
      tools: built.tools,
      ...extra,
    };
    const fallback = () => CONTEXT_ENGINES.default!(options);
    // An unknown name fails the turn with the list of known ones; a known engine that throws never does.
    const factory = contextEngineFactory(name, this.deps.contextEngines);
    if (name === 'default' || this.#quarantine.has(name)) return fallback();
    const tell = (id: string, reason: string) =>
      events.agent({
        runId,
        sessionKey: session.key,
        stream: 'notice',
        text: `Context engine "${id}" failed (${reason}) and is switched off until the gateway restarts; the default engine took over this turn.`,
      });
    try {
      return guardedEngine(factory(options), fallback, this.#quarantine, tell, extra.signal);
    } catch (error) {
      tell(name, this.#quarantine.add(name, error));
      return fallback();
    }
  }

  /** Tells the hooks when a compaction starts and ends, whoever asked for it (a turn or /compact). */
  #compactionHooks(events: TurnEvents): TurnEvents {
    const hooks = this.deps.hooks;
    if (!hooks) return events;
    return {
      ...events,
      agent: (payload) => {
        events.agent(payload);
        if (payload.stream !== 'compaction') return;
        if (payload.phase === 'start') hooks.compaction('before', { sessionKey: payload.sessionKey });
        if (payload.phase === 'end') {
          hooks.compaction('after', {
            sessionKey: payload.sessionKey,
            ...(payload.tokensBefore !== undefined ? { tokensBefore: payload.tokensBefore } : {}),
            ...(payload.tokensAfter !== undefined ? { tokensAfter: payload.tokensAfter } : {}),
          });
        }
      },
    };
  }

  /**
   * Runs one turn. It streams `chat` deltas and the final reply and `agent`
   * tool/usage events; lifecycle and error/aborted events are the lane's, made
   * from the returned outcome, so a sender hears about every failure once.
   */
  async runTurn(input: TurnInput, events: TurnEvents): Promise<TurnOutcome> {
    const { session } = input;
    const base = { runId: input.runId, sessionKey: session.key };
    for (const message of input.messages) {
      await session.append({ type: 'message', role: 'user', content: message.text, ...(message.meta ? { meta: message.meta } : {}) });
    }
    const model = await this.resolveModel(session);
    if (!model) {
      return this.#failed(session.key, {
        status: 'error',
        text: '',
        model: undefined,
        iterations: 0,
        error: { message: 'No model provider is configured, so this message was saved but not answered.', hint: this.deps.providers.setupHint() },
      });
    }
    const defaults = this.deps.config.agents.defaults;
    const entry = this.deps.config.agents.list.find((agent) => agent.id === session.agentId);
    const timeout = new AbortController();
    const limitSeconds = Math.min(session.timeoutSeconds ?? defaults.turnTimeoutSeconds, defaults.turnTimeoutSeconds);
    const timer = setTimeout(() => timeout.abort(new Error('turn timeout')), limitSeconds * 1000);
    const signal = AbortSignal.any([input.signal, timeout.signal]);
    const workspaceDir = this.workspaceDir(session.agentId);
    const charge: SpendCharge = { ...chargeOf(session), runId: input.runId, turnAllowance: 1 };
    try {
      const hookText = (await this.deps.hooks?.bootstrap({ sessionKey: session.key, agentId: session.agentId })) ?? [];
      const built = this.systemPrompt(session, model, hookText);
      const allowed = this.#allowedTools(session);
      const limits = this.#limits(model);
      const tools = (): ToolSchema[] => this.#deferred.select(session.key, allowed, limits).sent;
      const thinking = this.resolveThinking(session);
      const loop: TurnLoopContext = {
        input,
        providers: this.deps.providers,
        registry: this.deps.registry,
        events,
        model,
        fallbacks: entry?.fallbacks ?? defaults.fallbacks,
        thinking,
        system: built.prompt.text,
        tools: built.tools,
        // Asked at every model call: what tool_search found joins the next one.
        currentTools: tools,
        maxIterations: defaults.maxIterations,
        signal,
        timedOut: () => timeout.signal.aborted && !input.signal.aborted,
        toolContext: {
          agentId: session.agentId,
          ...(session.actingFor ? { actingForAgents: session.actingFor.agents } : {}),
          principal: leastTrusted([session.actingFor?.principal, session.principal ?? 'owner']) ?? 'owner',
          // The owner's mode loosens approvals only for the owner's own turns.
          ...(session.approvalMode && principalKind(leastTrusted([session.actingFor?.principal, session.principal ?? 'owner']) ?? 'owner') === 'owner'
            ? { approvalMode: session.approvalMode }
            : {}),
          sessionKey: session.key,
          sessionType: session.kind,
          workspaceDir,
          approvals: this.deps.approvals(session.key),
        },
        setupHint: () => this.deps.providers.setupHint(),
        ...(this.deps.hooks ? { hooks: this.deps.hooks } : {}),
        sessionsDir: this.deps.paths.sessionsDir(session.agentId),
        charge,
      };
      // The flush turn gets a window without a flush of its own: it never flushes or compacts.
      const flushLoop = { ...loop, window: this.#window(session, events, input.runId, model, built, { signal, charge }) };
      const flush = (): Promise<void> => runMemoryFlushTurn(flushLoop, memoryFlushPrompt(this.deps.clock.now(), localTimeZone()));
      const window = this.#window(session, events, input.runId, model, built, { signal, flush, charge });
      const outcome = await runTurnLoop({ ...loop, window });
      if (outcome.status === 'completed' || outcome.status === 'suppressed') {
        if (!this.#bootstrapped.has(workspaceDir)) {
          markFirstRunCompleteSync(workspaceDir, this.deps.clock.now());
          this.#bootstrapped.add(workspaceDir);
        }
        this.#lastErrors.delete(session.key);
        events.chat({ ...base, state: 'final', text: outcome.text, ...(outcome.status === 'suppressed' ? { suppressed: true } : {}) });
        await this.#afterTurn(session.key, window, true);
        return outcome;
      }
      await this.#afterTurn(session.key, window, false);
      if (outcome.status === 'aborted') return outcome;
      if (outcome.status === 'timeout') {
        return this.#failed(session.key, {
          ...outcome,
          error: {
            message: `The turn took longer than ${limitSeconds} s and was stopped.`,
            hint:
              limitSeconds < defaults.turnTimeoutSeconds
                ? 'Its trigger set this limit (timeoutSeconds); send it again with a longer one.'
                : 'Send a follow-up to continue, or raise agents.defaults.turnTimeoutSeconds in claw.json.',
          },
        });
      }
      return this.#failed(session.key, outcome);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * After an answered turn: flush and compaction when due, then the `context`
   * event; after a failed one only the event. The reply is already out, so a
   * failure here is recorded for /status, not thrown.
   */
  async #afterTurn(sessionKey: string, window: ContextEngine, answered: boolean): Promise<void> {
    try {
      if (answered) await window.afterTurn();
      else await window.report();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.#lastErrors.set(sessionKey, {
        at: this.deps.clock.now(),
        message: `Context maintenance after the turn failed: ${message}`,
        hint: 'Run /compact to try again, or /new to start a fresh session.',
      });
    }
  }

  #failed(sessionKey: string, outcome: TurnOutcome): TurnOutcome {
    const error = outcome.error ?? { message: 'The turn failed.' };
    this.#lastErrors.set(sessionKey, { at: this.deps.clock.now(), ...error });
    return { ...outcome, error };
  }
}
