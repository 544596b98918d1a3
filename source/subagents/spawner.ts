import { randomUUID } from 'node:crypto';
import { mayReachAgent, unreachableAgent } from '../agent/index.js';
import type { SubagentsSettings } from '../config/index.js';
import { leastTrusted, type ReplyRoute } from '../protocol/index.js';
import type { ThinkingLevel } from '../providers/index.js';
import { defaultAgentId, subagentSessionKey } from '../routing/index.js';
import type { RunLedger } from './run-ledger.js';
import { childTaskText, SPAWN_PREFIX } from './messages.js';
import type { SpawnedRecord } from './records.js';
import type { SubagentPorts } from './run-state.js';

/** A spawn the limits or the arguments refuse; the message says which and what to do. */
export class SpawnError extends Error {
  override readonly name = 'SpawnError';
}

export interface SpawnRequest {
  parentKey: string;
  task: string;
  label?: string | undefined;
  agentId?: string | undefined;
  model?: string | undefined;
  thinking?: ThinkingLevel | undefined;
  runTimeoutSeconds?: number | undefined;
  mode?: 'run' | 'session' | undefined;
  context?: 'isolated' | 'fork' | undefined;
  /** `acp`: an external coding agent from acp.agents runs the task instead of claw's own agent. */
  runtime?: 'subagent' | 'acp' | undefined;
  /** The acp.agents entry (runtime acp). */
  agent?: string | undefined;
}

export interface SpawnAccepted {
  status: 'accepted';
  runId: string;
  childSessionKey: string;
}

export interface SpawnerDeps {
  core: SubagentPorts;
  ledger: RunLedger;
  settings(): SubagentsSettings;
  running(parentKey: string): number;
  parentRunId(parentKey: string): string | undefined;
  /** The external chat the parent's running turn answers, if any. */
  parentRoute(parentKey: string): ReplyRoute | undefined;
  armTimeout(run: SpawnedRecord): void;
  changed(): void;
}

const LABEL_CHARS = 48;
const FORK_MESSAGES = 12;
const FORK_CHARS = 6000;

function labelOf(task: string): string {
  const flat = task.replace(/\s+/g, ' ').trim();
  return flat.length > LABEL_CHARS ? `${flat.slice(0, LABEL_CHARS - 1)}…` : flat;
}

/** Checks the limits, records the child durably, then hands its first message to the inbound path. */
export class Spawner {
  constructor(private readonly deps: SpawnerDeps) {}

  async spawn(request: SpawnRequest, parentDepth: number): Promise<SpawnAccepted> {
    const { core } = this.deps;
    const settings = this.deps.settings();
    const depth = parentDepth + 1;
    if (depth > settings.maxSpawnDepth) {
      throw new SpawnError(
        `maxSpawnDepth (${settings.maxSpawnDepth}) reached: this session is itself a child at depth ${parentDepth}, so it cannot spawn. Do the work here, or raise agents.defaults.subagents.maxSpawnDepth (at most 3).`,
      );
    }
    const running = this.deps.running(request.parentKey);
    if (running >= settings.maxChildrenPerAgent) {
      throw new SpawnError(
        `maxChildrenPerAgent (${settings.maxChildrenPerAgent}) reached: this session already has ${running} children running. Wait for them (sessions_yield), cancel one (subagents {"action":"cancel"}), or raise agents.defaults.subagents.maxChildrenPerAgent.`,
      );
    }
    const config = core.config.current;
    const parentAgent = core.sessions.resolve(request.parentKey).agentId;
    const agentId = request.agentId ?? parentAgent;
    const known = config.agents.list.length > 0 ? config.agents.list.map((a) => a.id) : [defaultAgentId(config)];
    if (!known.includes(agentId)) throw new SpawnError(`Unknown agent "${agentId}". Known agents: ${known.join(', ')}.`);
    if (!mayReachAgent(parentAgent, agentId, config.tools.sessions)) throw new SpawnError(unreachableAgent(agentId, parentAgent));
    const model = request.model ?? settings.model;
    if (model) {
      try {
        core.models.resolve(model);
      } catch (error) {
        throw new SpawnError(
          `Model "${model}" is not available: ${error instanceof Error ? error.message : String(error)}. Leave model out to use the agent's.`,
        );
      }
    }
    const runtime = request.runtime === 'acp' ? `acp:${this.#acpAgent(request.agent)}` : undefined;
    const runId = randomUUID();
    const childKey = subagentSessionKey(agentId, runId);
    const label = request.label?.trim() || labelOf(request.task);
    const forkedContext = request.context === 'fork' ? await this.#forkedContext(request.parentKey) : undefined;
    core.sessions.ensure(childKey);
    core.sessions.patch(childKey, { label, ...(model ? { model } : {}), ...(request.thinking ? { thinking: request.thinking } : {}) });
    const parentRunId = this.deps.parentRunId(request.parentKey);
    const replyRoute = this.deps.parentRoute(request.parentKey);
    const run: SpawnedRecord = {
      t: 'spawned',
      runId,
      childKey,
      parentKey: request.parentKey,
      ...(parentRunId ? { parentRunId } : {}),
      agentId,
      label,
      task: childTaskText({ parentKey: request.parentKey, label, task: request.task, ...(forkedContext ? { forkedContext } : {}) }),
      depth,
      mode: request.mode ?? 'run',
      messageId: `${SPAWN_PREFIX}${runId}`,
      timeoutSeconds: request.runTimeoutSeconds ?? settings.runTimeoutSeconds,
      ...(runtime ? { runtime } : {}),
      ...(replyRoute ? { replyRoute } : {}),
      actingFor: this.#actingFor(request.parentKey),
      at: core.clock.now(),
    };
    return this.#start(run);
  }

  /** A finished `session`-mode child runs again in the same session: a new run with its own completion. */
  rerun(previous: SpawnedRecord, message: string): Promise<SpawnAccepted> {
    const runId = randomUUID();
    const parentRunId = this.deps.parentRunId(previous.parentKey);
    const replyRoute = this.deps.parentRoute(previous.parentKey) ?? previous.replyRoute;
    const { parentRunId: _old, replyRoute: _route, ...rest } = previous;
    const now = this.#actingFor(previous.parentKey);
    // The parent may be asked by someone less trusted now than when it spawned: the child keeps the stricter of both.
    const actingFor = previous.actingFor
      ? {
          principal: leastTrusted([previous.actingFor.principal, now.principal]) ?? now.principal,
          agents: [...new Set([...previous.actingFor.agents, ...now.agents])],
        }
      : now;
    return this.#start({
      ...rest,
      actingFor,
      ...(parentRunId ? { parentRunId } : {}),
      ...(replyRoute ? { replyRoute } : {}),
      runId,
      task: `[message from the parent session ${previous.parentKey}]\n${message}`,
      messageId: `${SPAWN_PREFIX}${runId}`,
      at: this.deps.core.clock.now(),
    });
  }

  /** The child's message into its own session; a second accept of the same run is a journal duplicate. */
  async accept(run: SpawnedRecord): Promise<void> {
    // Lineage first: the child's first turn may start as soon as its message is accepted, and must already act for its line.
    this.deps.core.sessions.ensure(run.childKey);
    this.deps.core.sessions.setLineage(run.childKey, run.parentKey, run.depth, run.actingFor ?? this.#actingFor(run.parentKey));
    await this.deps.core.inbound.accept({
      channel: 'subagent',
      sessionKey: run.childKey,
      messageId: run.messageId,
      text: run.task,
      peer: { kind: 'direct', id: run.parentKey },
      senderName: 'parent',
      queueMode: 'followup',
    });
  }

  /**
   * Whom a child of this parent acts for: the principal of the parent's
   * turn (for a parent that is itself a child, whom it acts for) and the
   * agents of the whole line, so neither a spawn nor a spawn of a spawn
   * gains a tool or a command its ancestors did not have.
   */
  #actingFor(parentKey: string): { principal: string; agents: string[] } {
    const parent = this.deps.core.sessions.get(parentKey);
    const agentId = parent?.agentId ?? this.deps.core.sessions.resolve(parentKey).agentId;
    const inherited = parent?.entry.actingFor;
    if (inherited) return { principal: inherited.principal, agents: [...new Set([...inherited.agents, agentId])] };
    return { principal: parent?.entry.principal ?? 'owner', agents: [agentId] };
  }

  async #start(run: SpawnedRecord): Promise<SpawnAccepted> {
    // The child's transcript file (written and synced on the thread pool) is made while the spawn
    // itself becomes durable, so the child's turn does not wait for it; a failure here is the lane's
    // to report when it opens the session for the turn.
    void this.deps.core.sessions.open(run.childKey).catch(() => undefined);
    // The spawn record and the child's journal record are synced together, not one after the other;
    // `accepted` waits for both, and the child's turn for the spawn record (see SubagentsService.runner).
    const recorded = this.deps.ledger.spawned(run);
    this.deps.armTimeout(run);
    this.deps.changed();
    await Promise.all([recorded, this.accept(run)]);
    return { status: 'accepted', runId: run.runId, childSessionKey: run.childKey };
  }

  #acpAgent(name: string | undefined): string {
    const acp = this.deps.core.config.current.acp;
    const names = Object.keys(acp.agents);
    if (acp.enabled === false || names.length === 0)
      throw new SpawnError('No external (ACP) agents are enabled: configure acp.agents.<name> {command, args} in claw.json, or spawn without runtime "acp".');
    if (!name) throw new SpawnError(`runtime "acp" needs agent: one of ${names.join(', ')}.`);
    if (!names.includes(name)) throw new SpawnError(`No ACP agent "${name}". Configured: ${names.join(', ')}.`);
    return name;
  }

  async #forkedContext(parentKey: string): Promise<string | undefined> {
    const session = await this.deps.core.sessions.open(parentKey);
    const lines: string[] = [];
    for (const entry of session.entries()) {
      if (entry.type !== 'message') continue;
      if (entry.role === 'user') lines.push(`user: ${entry.content}`);
      if (entry.role === 'assistant') {
        const text = entry.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
        if (text.trim()) lines.push(`assistant: ${text}`);
      }
    }
    const recent = lines.slice(-FORK_MESSAGES).join('\n');
    if (!recent) return undefined;
    return recent.length > FORK_CHARS ? `…${recent.slice(-FORK_CHARS)}` : recent;
  }
}
