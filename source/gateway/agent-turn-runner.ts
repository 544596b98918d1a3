import type { AgentRuntime, HistoryMessage, TurnOutcome as AgentOutcome, TurnSession } from '../agent/index.js';
import type { TranscriptEntry } from '../protocol/index.js';
import type { SessionHandle, TurnContext, TurnOutcome, TurnRunner } from '../queue/index.js';

function isMessage(entry: TranscriptEntry): entry is HistoryMessage {
  return entry.type === 'message';
}

/**
 * What the model sees of a transcript: after a compaction, its summary and
 * the entries it kept; otherwise every message. Custom entries (turn
 * outcomes, model changes) are bookkeeping, not conversation.
 */
export function modelHistory(entries: readonly TranscriptEntry[]): HistoryMessage[] {
  let start = 0;
  let summary: HistoryMessage | undefined;
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    const entry = entries[index];
    if (entry?.type !== 'compaction') continue;
    const kept = entries.findIndex((candidate) => candidate.id === entry.firstKeptEntryId);
    start = kept >= 0 ? kept : index + 1;
    summary = { id: entry.id, parentId: entry.parentId, timestamp: entry.timestamp, type: 'message', role: 'user', content: `[Summary of the earlier conversation]\n${entry.summary}`, meta: { synthetic: 'compaction' } };
    break;
  }
  const messages = entries.slice(start).filter(isMessage);
  return summary ? [summary, ...messages] : messages;
}

function turnSession(turn: TurnContext, session: SessionHandle): TurnSession {
  const meta = session.meta();
  return {
    key: session.key,
    agentId: session.agentId,
    kind: meta.kind,
    channel: turn.messages[0]?.channel ?? meta.lastChannel ?? 'tui',
    model: meta.model,
    thinking: meta.thinking,
    history: async () => modelHistory(session.entries()),
    append: async (entry) => {
      const [stamped] = session.append(entry);
      if (!stamped) throw new Error('the session store returned no entry for an append');
      return stamped;
    },
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
      return { status: 'failed', error: outcome.error?.message ?? 'The turn failed.', ...(outcome.error?.hint ? { hint: outcome.error.hint } : {}) };
  }
}

/** The real TurnRunner: lanes hand each turn to the agent runtime. */
export function agentTurnRunner(runtime: AgentRuntime): TurnRunner {
  return {
    async run(turn) {
      const outcome = await runtime.runTurn({
        runId: turn.runId,
        session: turnSession(turn, turn.session),
        // The lane has already appended the user messages.
        messages: [],
        signal: turn.signal,
        // The lane appends steered messages to the transcript as they are taken.
        hasSteered: () => turn.hasSteered(),
        takeSteered: () => turn.takeSteered().map((message) => ({ text: message.text, appended: true })),
      }, {
        chat: (payload) => turn.emit('chat', payload),
        agent: (payload) => turn.emit('agent', payload),
      });
      return laneOutcome(outcome);
    },
  };
}
