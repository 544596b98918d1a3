import { join } from 'node:path';
import type { SubagentsSettings, TimerHandle } from '../config/index.js';
import type { Service, ServiceHealth } from '../core/index.js';
import type { ReplyRoute, SubagentNode } from '../protocol/index.js';
import type { QueuedMessage, TurnRunner } from '../queue/index.js';
import { parseSessionKey } from '../routing/index.js';
import type { ApprovalGate, ToolDefinition } from '../tools/index.js';
import { acpAgentName, runAcpTurn } from './acp/acp-child.js';
import { Completions } from './completions.js';
import { ChildControl } from './control.js';
import { Deliveries } from './deliveries.js';
import type { ParentInbox } from './inbox.js';
import { SPAWN_PREFIX } from './messages.js';
import { RunState, type SubagentPorts } from './run-state.js';
import { SpawnError, Spawner, type SpawnAccepted, type SpawnRequest } from './spawner.js';
import { subagentTools } from './tools.js';

/** Tools a child never gets: it acts for its parent, not for the user, and does not schedule or message other sessions. */
const CHILD_DENIED = ['group:messaging', 'message', 'cron', 'sessions_send'];
/** What a child at the depth limit loses on top: it cannot have children to manage. */
const LEAF_DENIED = ['sessions_spawn', 'sessions_yield', 'subagents'];
const TREE_EVENT_MS = 50;

/**
 * Sub-agents as one daemon service: `sessions_spawn` starts a child session
 * on the `subagent` lane through `inbound.accept`; the `subagent` outbound
 * channel hears how each child turn ended; the result goes to the parent's
 * durable inbox first and reaches the parent as an inbound message (see
 * README.md for the crash rules). Lifecycle events give it running state,
 * last tools and parent aborts. The parts: `Spawner` (limits, the durable
 * spawn), `Completions` (outcomes, timeouts, recovery), `Deliveries` (inbox →
 * parent), `ChildControl` (cancel, steer, yield).
 */
export class SubagentsService implements Service {
  readonly name = 'subagents';
  #core: SubagentPorts | undefined;
  #state: RunState | undefined;
  #deliveries: Deliveries | undefined;
  #spawner: Spawner | undefined;
  #completions: Completions | undefined;
  #control: ChildControl | undefined;
  #treeTimer: TimerHandle | undefined;
  #cleanup: Array<() => void> = [];

  get started(): boolean {
    return this.#core !== undefined;
  }

  start(core: SubagentPorts): void {
    this.#core = core;
    const dir = join(core.paths.root, 'subagents');
    const state = new RunState(core, join(dir, 'runs.jsonl'), join(dir, 'inbox'));
    this.#state = state;
    const changed = (): void => this.changed();
    const deliveries = new Deliveries({
      inbound: core.inbound,
      clock: core.clock,
      maxChars: () => this.settings().maxResultChars,
      replyRoute: (runIds) => state.replyRoute(runIds),
      principal: (runIds) => state.resultPrincipal(runIds),
      changed,
      warn: (message) => state.warn(message),
    });
    this.#deliveries = deliveries;
    const spawner = new Spawner({
      core,
      ledger: state.ledger,
      settings: () => this.settings(),
      running: (parentKey) => state.runningChildren(parentKey).length,
      parentRunId: (parentKey) => state.currentRun.get(parentKey),
      parentRoute: (parentKey) => state.turnRoutes.get(parentKey),
      armTimeout: (run) => this.#completions!.armTimeout(run),
      changed,
    });
    this.#spawner = spawner;
    this.#control = new ChildControl({ state, rerun: (run, message) => spawner.rerun(run, message), changed });
    this.#completions = new Completions({
      state,
      deliveries,
      timeOut: (runId) => void this.cancel(runId, undefined, 'timeout'),
      accept: (run) => spawner.accept(run),
      changed,
    });
    this.#cleanup.push(
      core.turns.onOutcome('subagent', (outcome) => void this.#completions!.outcome(outcome)),
      core.turns.on('turn.start', ({ sessionKey, runId }) => this.#turnStarted(sessionKey, runId)),
      core.turns.on('turn.end', ({ sessionKey, runId, status }) => this.#turnEnded(sessionKey, runId, status)),
      core.turns.on('turn.tool', ({ sessionKey, tool, phase }) => {
        if (phase === 'start' && state.ledger.byChild(sessionKey)) {
          state.lastTool.set(sessionKey, tool);
          this.changed();
        }
      }),
      // After the journal's replay: only then is it known which child turns will run again.
      core.lifecycle.on('gateway:startup', () => this.#completions!.recover()),
    );
    for (const tool of subagentTools(this, Object.keys(core.config.current.acp.agents))) this.#register(core, tool);
    for (const run of state.ledger.all()) if (!state.resultOf(run)) this.#completions.armTimeout(run);
  }

  async stop(): Promise<void> {
    for (const cleanup of this.#cleanup.splice(0)) cleanup();
    this.#completions?.stop();
    if (this.#treeTimer) this.#core?.clock.clearTimer(this.#treeTimer);
    this.#treeTimer = undefined;
    this.#deliveries?.stop();
    await this.#deliveries?.settled();
    await this.#state?.close();
  }

  health(): ServiceHealth {
    const state = this.#state;
    const running = state?.ledger.all().filter((run) => !state.resultOf(run)).length ?? 0;
    const pending = [...(state?.inboxes.values() ?? [])].reduce((n, inbox) => n + inbox.undelivered().length + inbox.unannounced().length, 0);
    return { ok: true, detail: `${running} child run(s) open, ${pending} completion(s) not yet delivered` };
  }

  settings(): SubagentsSettings {
    return this.core.config.current.agents.defaults.subagents;
  }

  /** Starts a child; resolves once its message is journaled. Refusals are `SpawnError`s that name the limit. */
  spawn(request: SpawnRequest): Promise<SpawnAccepted> {
    if (!this.#spawner || !this.#state) throw new SpawnError('the subagents service has not started');
    return this.#spawner.spawn(request, this.#state.depthOf(request.parentKey));
  }

  /** The children (and theirs) of one session, or every run when `parentKey` is absent. */
  list(parentKey?: string): SubagentNode[] {
    return this.#state?.list(parentKey) ?? [];
  }

  /** What a new client shows at once: the runs still open and the latest finished ones. */
  tree(): { nodes: SubagentNode[] } {
    return { nodes: this.list() };
  }

  /** Cancels a child run; `callerKey` (a parent) may only cancel its own descendants. */
  cancel(id: string, callerKey?: string, reason: 'request' | 'parent' | 'timeout' = 'request'): { cancelled: boolean; node: SubagentNode } {
    return this.#controls.cancel(id, callerKey, reason);
  }

  /** A running child reads `message` at its next tool boundary; a finished `session`-mode child runs again with it. */
  steer(id: string, message: string, callerKey?: string): Promise<{ node: SubagentNode; status: 'steered' | 'restarted' }> {
    return this.#controls.steer(id, message, callerKey);
  }

  /** The parent ends its turn: with `all`, its running children's results are held and arrive as one message. */
  yieldFor(parentKey: string, mode: 'all' | 'any'): { runIds: string[]; labels: string[] } {
    return this.#controls.yieldFor(parentKey, mode);
  }

  /**
   * The lane's runner: a child's turn waits for its spawn record to be on
   * disk; a turn's chat-platform route is kept while it runs (children it
   * spawns report to that chat); external-agent (ACP) children run over the
   * Agent Client Protocol instead.
   */
  runner(base: TurnRunner): TurnRunner {
    return {
      run: async (turn) => {
        const state = this.#state;
        if (!state) return base.run(turn);
        const run = state.ledger.byChild(turn.sessionKey);
        const spawns = turn.messages.filter((m) => m.messageId.startsWith(SPAWN_PREFIX));
        // A child journaled in the same instant as its spawn record, whose record a crash then took: nobody was told it was accepted.
        if (!run && spawns.length > 0) return { status: 'failed', error: 'This child was never started: the gateway stopped before its spawn was recorded.' };
        await Promise.all(spawns.map((m) => state.ledger.durable(m.messageId.slice(SPAWN_PREFIX.length))));
        const route = this.#platformRoute(turn.messages);
        if (route) state.turnRoutes.set(turn.sessionKey, route);
        try {
          const name = run ? acpAgentName(run) : undefined;
          if (!run || !name) return await base.run(turn);
          const core = this.core;
          return await runAcpTurn(turn, run, name, {
            config: () => core.config.current,
            workspaceDir: (agentId) => core.workspaces.dir(agentId),
            approvals: (key) => this.approvalGate(core.tools.approvals.gate(run.agentId, key), key),
            toolSeen: (key, title) => {
              state.lastTool.set(key, title);
              this.changed();
            },
            confine: (file, args, policy) => core.tools.confine(file, args, policy),
            baseEnv: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/' },
            stateDir: core.paths.root,
          });
        } finally {
          if (route && state.turnRoutes.get(turn.sessionKey) === route) state.turnRoutes.delete(turn.sessionKey);
        }
      },
    };
  }

  /** Tools the policy removes from a session's turns (children only). */
  deniedTools(sessionKey: string): readonly string[] {
    if (parseSessionKey(sessionKey)?.kind !== 'subagent') return [];
    const run = this.#state?.ledger.byChild(sessionKey);
    const depth = run?.depth ?? 1;
    const max = this.#core ? this.settings().maxSpawnDepth : 1;
    return depth >= max ? [...CHILD_DENIED, ...LEAF_DENIED] : CHILD_DENIED;
  }

  /** A child's approval requests say which child and which parent asked. */
  approvalGate(gate: ApprovalGate, sessionKey: string): ApprovalGate {
    if (parseSessionKey(sessionKey)?.kind !== 'subagent') return gate;
    return {
      approvedForSession: (kind, binding) => gate.approvedForSession(kind, binding),
      request: (input, signal) => {
        const run = this.#state?.ledger.byChild(sessionKey);
        const who = run ? `sub-agent "${run.label}" (${sessionKey}), spawned by ${run.parentKey}` : `sub-agent ${sessionKey}`;
        return gate.request({ ...input, reason: `${who}: ${input.reason}` }, signal);
      },
    };
  }

  inbox(parentKey: string): ParentInbox {
    if (!this.#state) throw new Error('the subagents service has not started');
    return this.#state.inbox(parentKey);
  }

  /** Resolves when every delivery started so far has settled (tests, benchmarks). */
  settled(): Promise<void> {
    return this.#deliveries?.settled() ?? Promise.resolve();
  }

  /** Coalesces tree changes into one `subagents` event. */
  changed(): void {
    const core = this.#core;
    if (!core || this.#treeTimer) return;
    this.#treeTimer = core.clock.setTimer(() => {
      this.#treeTimer = undefined;
      core.clients.emit('subagents', this.tree());
    }, TREE_EVENT_MS);
  }

  get core(): SubagentPorts {
    if (!this.#core) throw new Error('the subagents service has not started');
    return this.#core;
  }

  get #controls(): ChildControl {
    if (!this.#control) throw new Error('the subagents service has not started');
    return this.#control;
  }

  /** The chat platform a turn answers (a durable channel), from its newest message that has one. */
  #platformRoute(messages: readonly QueuedMessage[]): ReplyRoute | undefined {
    for (const message of [...messages].reverse()) {
      if (message.route && this.core.outbound.durable(message.route.channel)) return message.route;
    }
    return undefined;
  }

  #register(core: SubagentPorts, tool: ToolDefinition): void {
    core.tools.register(tool);
    this.#cleanup.push(() => core.tools.unregister(tool.name));
  }

  #turnStarted(sessionKey: string, runId: string): void {
    const state = this.#state;
    if (!state) return;
    state.currentRun.set(sessionKey, runId);
    const run = state.ledger.byChild(sessionKey);
    if (!run) return;
    // A child cancelled while it waited for a slot stops as soon as it starts.
    if (state.ledger.cancel(run.runId) && !state.resultOf(run)) this.core.lanes.abort(sessionKey);
    this.changed();
  }

  #turnEnded(sessionKey: string, runId: string, status: string): void {
    const state = this.#state;
    if (!state) return;
    if (state.currentRun.get(sessionKey) === runId) state.currentRun.delete(sessionKey);
    if (status === 'aborted' && this.settings().cancelWithParent) this.#controls.cancelWithParent(sessionKey, runId);
    if (state.ledger.byChild(sessionKey)) this.changed();
  }
}
