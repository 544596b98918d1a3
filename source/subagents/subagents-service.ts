import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { SubagentsSettings, TimerHandle } from '../config/index.js';
import type { Core, Service, ServiceHealth } from '../core/index.js';
import type { SubagentNode } from '../protocol/index.js';
import { parseSessionKey } from '../routing/index.js';
import type { TurnRunner } from '../queue/index.js';
import type { ApprovalGate, ToolDefinition } from '../tools/index.js';
import { acpAgentName, runAcpTurn } from './acp-child.js';
import { Deliveries } from './deliveries.js';
import { ParentInbox } from './inbox.js';
import { ANNOUNCE_SKIP, SPAWN_PREFIX, STEER_PREFIX } from './messages.js';
import type { ResultRecord, ResultStatus, SpawnedRecord } from './records.js';
import { RunLedger } from './run-ledger.js';
import { SpawnError, Spawner, type SpawnRequest, type SpawnAccepted } from './spawner.js';
import { subagentTools } from './tools.js';
import { resultFromTranscript } from './transcript-result.js';
import { buildNodes } from './tree.js';

/** Tools a child never gets: it acts for its parent, not for the user, and does not schedule or message other sessions. */
const CHILD_DENIED = ['group:messaging', 'message', 'cron', 'sessions_send'];
/** What a child at the depth limit loses on top: it cannot have children to manage. */
const LEAF_DENIED = ['sessions_spawn', 'sessions_yield', 'subagents'];
const TREE_EVENT_MS = 50;

/** Thrown for a run id or key the caller may not see, or that does not exist. */
export class SubagentNotFound extends Error {
  override readonly name = 'SubagentNotFound';
}

/**
 * Sub-agents as one daemon service: `sessions_spawn` starts a child session
 * on the `subagent` lane through `inbound.accept`; the `subagent` outbound
 * channel hears how each child turn ended; the result goes to the parent's
 * durable inbox first and reaches the parent as an inbound message (see
 * README.md for the crash rules). Lifecycle events give it running state,
 * last tools and parent aborts.
 */
export class SubagentsService implements Service {
  readonly name = 'subagents';
  #core: Core | undefined;
  #ledger: RunLedger | undefined;
  #inboxDir = '';
  readonly #inboxes = new Map<string, ParentInbox>();
  readonly #lastTool = new Map<string, string>();
  readonly #currentRun = new Map<string, string>();
  readonly #timeouts = new Map<string, TimerHandle>();
  #deliveries: Deliveries | undefined;
  #spawner: Spawner | undefined;
  #treeTimer: TimerHandle | undefined;
  #cleanup: Array<() => void> = [];

  get started(): boolean {
    return this.#core !== undefined;
  }

  start(core: Core): void {
    this.#core = core;
    const dir = join(core.paths.root, 'subagents');
    const warn = (message: string): void => core.log.warn(`subagents: ${message}`);
    this.#ledger = new RunLedger(join(dir, 'runs.jsonl'), warn);
    this.#inboxDir = join(dir, 'inbox');
    for (const parentKey of ParentInbox.parentsIn(this.#inboxDir)) this.inbox(parentKey);
    this.#deliveries = new Deliveries({
      inbound: core.inbound,
      clock: core.clock,
      maxChars: () => this.settings().maxResultChars,
      changed: () => this.changed(),
      warn,
    });
    this.#spawner = new Spawner({
      core,
      ledger: this.#ledger,
      settings: () => this.settings(),
      running: (parentKey) => this.#runningChildren(parentKey).length,
      parentRunId: (parentKey) => this.#currentRun.get(parentKey),
      armTimeout: (run) => this.#armTimeout(run),
      changed: () => this.changed(),
    });
    this.#cleanup.push(
      core.outbound.register('subagent', { deliver: async (_route, reply) => this.#outcome(reply) }),
      core.lifecycle.on('turn:start', ({ sessionKey, runId }) => this.#turnStarted(sessionKey, runId)),
      core.lifecycle.on('turn:end', ({ sessionKey, runId, status }) => this.#turnEnded(sessionKey, runId, status)),
      core.lifecycle.on('tool:before', ({ sessionKey, tool }) => {
        if (this.#ledger?.byChild(sessionKey)) {
          this.#lastTool.set(sessionKey, tool);
          this.changed();
        }
      }),
      // After the journal's replay: only then is it known which child turns will run again.
      core.lifecycle.on('gateway:startup', () => this.#recover()),
    );
    for (const tool of subagentTools(this, Object.keys(core.config.current.acp.agents))) this.#register(core, tool);
    for (const run of this.#ledger.all()) if (!this.#resultOf(run)) this.#armTimeout(run);
  }

  async stop(): Promise<void> {
    for (const cleanup of this.#cleanup.splice(0)) cleanup();
    const clock = this.#core?.clock;
    for (const timer of this.#timeouts.values()) clock?.clearTimer(timer);
    this.#timeouts.clear();
    if (this.#treeTimer) clock?.clearTimer(this.#treeTimer);
    this.#treeTimer = undefined;
    this.#deliveries?.stop();
    await this.#deliveries?.settled();
    this.#ledger?.close();
    for (const inbox of this.#inboxes.values()) inbox.close();
    this.#inboxes.clear();
  }

  health(): ServiceHealth {
    const running = this.#ledger?.all().filter((run) => !this.#resultOf(run)).length ?? 0;
    const pending = [...this.#inboxes.values()].reduce((n, inbox) => n + inbox.undelivered().length + inbox.unannounced().length, 0);
    return { ok: true, detail: `${running} child run(s) open, ${pending} completion(s) not yet delivered` };
  }

  settings(): SubagentsSettings {
    return this.core.config.current.agents.defaults.subagents;
  }

  /** Starts a child; resolves once its message is journaled. Refusals are `SpawnError`s that name the limit. */
  spawn(request: SpawnRequest): Promise<SpawnAccepted> {
    if (!this.#spawner) throw new SpawnError('the subagents service has not started');
    return this.#spawner.spawn(request, this.#depthOf(request.parentKey));
  }

  /** The children (and theirs) of one session, or every run when `parentKey` is absent. */
  list(parentKey?: string): SubagentNode[] {
    const nodes = buildNodes(this.#ledger?.all() ?? [], (run) => this.#nodeState(run));
    if (parentKey === undefined) return nodes;
    const keys = new Set([parentKey]);
    return nodes.filter((node) => {
      if (!keys.has(node.parentKey)) return false;
      keys.add(node.key);
      return true;
    });
  }

  /** What a new client shows at once: the runs still open and the latest finished ones. */
  tree(): { nodes: SubagentNode[] } {
    return { nodes: this.list() };
  }

  /** Cancels a child run; `callerKey` (a parent) may only cancel its own descendants. */
  cancel(id: string, callerKey?: string, reason: 'request' | 'parent' | 'timeout' = 'request'): { cancelled: boolean; node: SubagentNode } {
    const run = this.#visibleRun(id, callerKey);
    const ledger = this.#ledger!;
    if (this.#resultOf(run)) return { cancelled: false, node: this.#node(run) };
    if (!ledger.cancel(run.runId)) ledger.append({ t: 'cancel', runId: run.runId, reason, at: this.core.clock.now() });
    this.core.lanes.abort(run.childKey);
    this.changed();
    return { cancelled: true, node: this.#node(run) };
  }

  /** A running child reads `message` at its next tool boundary; a finished `session`-mode child runs again with it. */
  async steer(id: string, message: string, callerKey?: string): Promise<{ node: SubagentNode; status: 'steered' | 'restarted' }> {
    const run = this.#visibleRun(id, callerKey);
    const core = this.core;
    if (this.#resultOf(run)) {
      if (run.mode !== 'session')
        throw new SpawnError(
          `Child "${run.label}" (${run.runId}) has finished and was spawned with mode "run"; spawn a new child with sessions_spawn instead.`,
        );
      const again = await this.#spawner!.rerun(run, message);
      return { node: this.#node(this.#ledger!.get(again.runId)!), status: 'restarted' };
    }
    await core.inbound.accept({
      channel: 'subagent',
      sessionKey: run.childKey,
      messageId: `${STEER_PREFIX}${run.runId}:${randomUUID()}`,
      text: `[message from the parent session ${run.parentKey}]\n${message}`,
      peer: { kind: 'direct', id: run.parentKey },
      senderName: 'parent',
      queueMode: 'steer',
    });
    return { node: this.#node(run), status: 'steered' };
  }

  /** The parent ends its turn: with `all`, its running children's results are held and arrive as one message. */
  yieldFor(parentKey: string, mode: 'all' | 'any'): { runIds: string[]; labels: string[] } {
    const running = this.#runningChildren(parentKey);
    if (running.length === 0) throw new SpawnError('This session has no running children to wait for; answer with what you have.');
    const runIds = running.map((run) => run.runId);
    this.inbox(parentKey).append({ t: 'yield', id: randomUUID(), mode, runIds, at: this.core.clock.now() });
    return { runIds, labels: running.map((run) => run.label) };
  }

  /** The lane's runner, with the turns of external-agent (ACP) children run over the Agent Client Protocol instead. */
  runner(base: TurnRunner): TurnRunner {
    return {
      run: (turn) => {
        const run = this.#ledger?.byChild(turn.sessionKey);
        const name = run ? acpAgentName(run) : undefined;
        if (!run || !name) return base.run(turn);
        const core = this.core;
        return runAcpTurn(turn, run, name, {
          config: () => core.config.current,
          workspaceDir: (agentId) => core.agent.workspaceDir(agentId),
          approvals: (key) => this.approvalGate(core.tools.inbox.gate(run.agentId, key), key),
          toolSeen: (key, title) => {
            this.#lastTool.set(key, title);
            this.changed();
          },
          baseEnv: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/' },
        });
      },
    };
  }

  /** Tools the policy removes from a session's turns (children only). */
  deniedTools(sessionKey: string): readonly string[] {
    if (parseSessionKey(sessionKey)?.kind !== 'subagent') return [];
    const run = this.#ledger?.byChild(sessionKey);
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
        const run = this.#ledger?.byChild(sessionKey);
        const who = run ? `sub-agent "${run.label}" (${sessionKey}), spawned by ${run.parentKey}` : `sub-agent ${sessionKey}`;
        return gate.request({ ...input, reason: `${who}: ${input.reason}` }, signal);
      },
    };
  }

  inbox(parentKey: string): ParentInbox {
    let inbox = this.#inboxes.get(parentKey);
    if (!inbox) {
      inbox = new ParentInbox(parentKey, this.#inboxDir, (message) => this.core.log.warn(`subagents: ${message}`));
      this.#inboxes.set(parentKey, inbox);
    }
    return inbox;
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
      core.events.emit('subagents', this.tree());
    }, TREE_EVENT_MS);
  }

  get core(): Core {
    if (!this.#core) throw new Error('the subagents service has not started');
    return this.#core;
  }

  #register(core: Core, tool: ToolDefinition): void {
    core.tools.registry.register(tool);
    this.#cleanup.push(() => void core.tools.registry.unregister(tool.name));
  }

  #depthOf(sessionKey: string): number {
    return this.#ledger?.byChild(sessionKey)?.depth ?? 0;
  }

  #resultOf(run: SpawnedRecord): ResultRecord | undefined {
    return this.#inboxes.get(run.parentKey)?.results.get(run.runId);
  }

  #runningChildren(parentKey: string): SpawnedRecord[] {
    return (this.#ledger?.all() ?? []).filter((run) => run.parentKey === parentKey && !this.#resultOf(run));
  }

  #visibleRun(id: string, callerKey: string | undefined): SpawnedRecord {
    const run = this.#ledger?.find(id);
    if (!run) throw new SubagentNotFound(`No child run "${id}". List the children with subagents {"action":"list"}.`);
    if (callerKey !== undefined) {
      let ancestor: SpawnedRecord | undefined = run;
      while (ancestor && ancestor.parentKey !== callerKey) ancestor = this.#ledger!.byChild(ancestor.parentKey);
      if (!ancestor) throw new SubagentNotFound(`Run "${id}" is not a child of this session. List yours with subagents {"action":"list"}.`);
    }
    return run;
  }

  #node(run: SpawnedRecord): SubagentNode {
    return buildNodes([run], (r) => this.#nodeState(r))[0]!;
  }

  #nodeState(run: SpawnedRecord): Pick<SubagentNode, 'status' | 'endedAt' | 'lastTool' | 'tokens' | 'delivery'> {
    const result = this.#resultOf(run);
    const tokens = this.#tokens(run.childKey);
    const lastTool = this.#lastTool.get(run.childKey);
    const common = { ...(lastTool ? { lastTool } : {}), ...(tokens > 0 ? { tokens } : {}) };
    if (result) {
      const delivery = this.#inboxes.get(run.parentKey)?.delivery(run.runId);
      return { ...common, status: result.status, endedAt: result.at, tokens: result.tokens, ...(delivery ? { delivery } : {}) };
    }
    return { ...common, status: this.core.lanes.laneInfo(run.childKey).running ? 'running' : 'queued' };
  }

  #tokens(childKey: string): number {
    const tokens = this.core.sessions.registry.get(childKey)?.entry.tokens;
    return tokens ? tokens.input + tokens.output : 0;
  }

  #turnStarted(sessionKey: string, runId: string): void {
    this.#currentRun.set(sessionKey, runId);
    const run = this.#ledger?.byChild(sessionKey);
    if (!run) return;
    // A child cancelled while it waited for a slot stops as soon as it starts.
    if (this.#ledger!.cancel(run.runId) && !this.#resultOf(run)) this.core.lanes.abort(sessionKey);
    this.changed();
  }

  #turnEnded(sessionKey: string, runId: string, status: string): void {
    if (this.#currentRun.get(sessionKey) === runId) this.#currentRun.delete(sessionKey);
    if (status === 'aborted' && this.settings().cancelWithParent) {
      for (const run of this.#runningChildren(sessionKey)) if (run.parentRunId === runId) this.cancel(run.runId, undefined, 'parent');
    }
    if (this.#ledger?.byChild(sessionKey)) this.changed();
  }

  /**
   * How a child's turn ended, from the lane. Everything up to the inbox
   * append is synchronous: the result is on disk before the journal's own
   * outcome record can be, so no crash can leave a finished child unreported.
   */
  #outcome(reply: { messageId: string; status: string; text: string }): { delivered: boolean } {
    if (!reply.messageId.startsWith(SPAWN_PREFIX)) return { delivered: true };
    const run = this.#ledger?.get(reply.messageId.slice(SPAWN_PREFIX.length));
    if (!run || this.#resultOf(run)) return { delivered: true };
    const cancel = this.#ledger!.cancel(run.runId);
    const status: ResultStatus =
      reply.status === 'replied' || reply.status === 'suppressed'
        ? 'done'
        : cancel?.reason === 'timeout'
          ? 'timeout'
          : reply.status === 'aborted'
            ? 'cancelled'
            : 'failed';
    this.#record(run, status, reply.status === 'suppressed' ? '' : reply.text);
    return { delivered: true };
  }

  #record(run: SpawnedRecord, status: ResultStatus, text: string): void {
    const now = this.core.clock.now();
    const result: ResultRecord = {
      t: 'result',
      runId: run.runId,
      childKey: run.childKey,
      label: run.label,
      status,
      text,
      ...(text.trim() === ANNOUNCE_SKIP ? { skipped: true } : {}),
      tokens: this.#tokens(run.childKey),
      durationMs: Math.max(0, now - run.at),
      at: now,
    };
    const inbox = this.inbox(run.parentKey);
    inbox.append(result);
    const timer = this.#timeouts.get(run.runId);
    if (timer) this.core.clock.clearTimer(timer);
    this.#timeouts.delete(run.runId);
    this.changed();
    this.#deliveries!.flush(inbox);
  }

  #armTimeout(run: SpawnedRecord): void {
    if (run.timeoutSeconds <= 0 || this.#timeouts.has(run.runId)) return;
    const left = Math.max(0, run.at + run.timeoutSeconds * 1000 - this.core.clock.now());
    this.#timeouts.set(
      run.runId,
      this.core.clock.setTimer(() => {
        this.#timeouts.delete(run.runId);
        if (this.#resultOf(run)) return;
        this.cancel(run.runId, undefined, 'timeout');
      }, left),
    );
  }

  /**
   * After a restart: a child whose final reply is in its transcript gets its
   * result from there (the crash fell between the reply and the inbox); one
   * whose message never reached the journal is accepted now (the dedupe key
   * makes a second accept a no-op); every inbox then delivers what it owes.
   */
  async #recover(): Promise<void> {
    const core = this.core;
    for (const run of this.#ledger!.all()) {
      if (this.#resultOf(run)) continue;
      try {
        const session = await core.sessions.registry.open(run.childKey);
        const found = session.isAnswered(run.messageId) ? resultFromTranscript(session.entries(), run.messageId) : undefined;
        if (found) this.#record(run, found.status, found.text);
        else if (!session.hasMessage(run.messageId)) await this.#spawner!.accept(run);
      } catch (error) {
        core.log.warn(`subagents: could not recover child ${run.runId}: ${String(error)}`);
      }
    }
    for (const inbox of this.#inboxes.values()) this.#deliveries!.flush(inbox);
  }
}
