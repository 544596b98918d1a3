import { assembleContext, type AgentRuntime, type HistoryMessage, type TurnOutcome as AgentOutcome, type TurnSession } from '../agent/index.js';
import { leastTrusted, type TranscriptEntry } from '../protocol/index.js';
import { sessionScopeId, spendKindOf } from '../providers/index.js';
import type { SessionHandle, TurnContext, TurnOutcome, TurnRunner } from '../queue/index.js';

/** What the model sees of a transcript (the compaction in force honoured, undone ones not). */
export function modelHistory(entries: readonly TranscriptEntry[]): HistoryMessage[] {
  return assembleContext(entries).messages;
}

/** A session's parent as the spend gate needs it: its current transcript, its agent, its own parent. */
export type SessionLookup = (key: string) => { agentId: string; sessionId: string; spawnedBy?: string | undefined } | undefined;

/** Whom a turn's calls are charged to: its session's transcript, and every ancestor of a subagent (a child cannot spend past its parent's caps). */
function chargeOf(session: TurnSession, sessionId: string, spawnedBy: string | undefined, lookup: SessionLookup | undefined): TurnSession['charge'] {
  const sessions: string[] = [];
  const agents: string[] = [];
  const seen = new Set<string>([session.key]);
  for (let key = spawnedBy; key && !seen.has(key); ) {
    seen.add(key);
    const parent = lookup?.(key);
    if (!parent) break;
    sessions.push(sessionScopeId(key, parent.sessionId));
    agents.push(parent.agentId);
    key = parent.spawnedBy;
  }
  return {
    agentId: session.agentId,
    sessionKey: session.key,
    sessionId,
    kind: spendKindOf(session.principal, session.kind),
    ...(sessions.length > 0 ? { parents: { sessions, agents } } : {}),
  };
}

function turnSession(turn: TurnContext, session: SessionHandle, lookup: SessionLookup | undefined): TurnSession {
  const adapted = sessionAdapter(session, turn.messages[0]?.channel);
  // A trigger's own model and time limit (heartbeat.model, /hooks/agent) hold for this turn only.
  const first = turn.messages[0];
  const principal = leastTrusted(turn.messages.map((message) => message.principal));
  const meta = session.meta();
  return {
    ...adapted,
    ...(principal !== undefined ? { principal } : {}),
    charge: chargeOf({ ...adapted, ...(principal !== undefined ? { principal } : {}) }, meta.sessionId, meta.spawnedBy, lookup),
    ...(first?.model !== undefined ? { model: first.model } : {}),
    ...(first?.timeoutSeconds !== undefined ? { timeoutSeconds: first.timeoutSeconds } : {}),
  };
}

/** A session as the agent runtime sees it, for turns and for slash commands outside a turn. */
export function sessionAdapter(session: SessionHandle, channel?: string): TurnSession {
  const meta = session.meta();
  return {
    key: session.key,
    agentId: session.agentId,
    kind: meta.kind,
    channel: channel ?? meta.lastChannel ?? 'tui',
    model: meta.model,
    thinking: meta.thinking,
    ...(meta.approvalMode !== undefined ? { approvalMode: meta.approvalMode } : {}),
    ...(meta.principal !== undefined ? { principal: meta.principal } : {}),
    ...(meta.actingFor !== undefined ? { actingFor: meta.actingFor } : {}),
    history: async () => modelHistory(session.entries()),
    append: async (entry) => {
      const [stamped] = session.append(entry);
      if (!stamped) throw new Error('the session store returned no entry for an append');
      return stamped;
    },
    entries: () => session.entries(),
    setCompactionCount: async (compactionCount) => session.updateMeta({ compactionCount }),
    addUsage: async (usage, _model, contextTokens) => {
      const current = session.meta();
      session.updateMeta({
        tokens: { input: current.tokens.input + usage.input, output: current.tokens.output + usage.output, context: contextTokens },
        costUsd: current.costUsd + (usage.cost ?? 0),
      });
    },
  };
}

function laneOutcome(outcome: AgentOutcome): TurnOutcome {
  switch (outcome.status) {
    case 'completed':
      return { status: 'replied', text: outcome.text };
    case 'suppressed':
      return { status: 'suppressed' };
    case 'aborted':
      return { status: 'aborted', error: 'stopped by the user' };
    default:
      return {
        status: 'failed',
        error: outcome.error?.message ?? 'The turn failed.',
        ...(outcome.error?.hint ? { hint: outcome.error.hint } : {}),
        failure: outcome.status === 'timeout' ? 'timeout' : outcome.status === 'limit' ? 'iteration_limit' : outcome.error?.budget ? 'budget' : 'error',
      };
  }
}

/** The real TurnRunner: lanes hand each turn to the agent runtime. */
export function agentTurnRunner(runtime: AgentRuntime, lookup?: SessionLookup): TurnRunner {
  return {
    async run(turn) {
      const outcome = await runtime.runTurn(
        {
          runId: turn.runId,
          session: turnSession(turn, turn.session, lookup),
          // The lane has already appended the user messages.
          messages: [],
          signal: turn.signal,
          // The lane appends steered messages to the transcript as they are taken.
          hasSteered: () => turn.hasSteered(),
          takeSteered: () => turn.takeSteered().map((message) => ({ text: message.text, appended: true })),
          outsideSlot: (wait) => turn.outsideSlot(wait),
        },
        {
          chat: (payload) => turn.emit('chat', payload),
          agent: (payload) => turn.emit('agent', payload),
        },
      );
      return laneOutcome(outcome);
    },
  };
}
