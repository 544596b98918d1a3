import type { ActiveTurn, TurnEmitter } from './active-turn.js';
import type { OutcomeStatus } from './journal-records.js';
import { outcomeEvent } from './turn-io.js';
import type { TurnFailure } from '../protocol/index.js';
import type { QueuedMessage, SessionHandle, TurnOutcome } from './turn-runner.js';

export type OnOutcome = (message: QueuedMessage, status: OutcomeStatus, detail: OutcomeDetail) => void;

/** What an outcome carries besides its status; `failure` tells a budget stop from other failures. */
export interface OutcomeDetail {
  reason?: string;
  turnRunId?: string;
  text?: string;
  failure?: TurnFailure;
}

export interface OutcomeDeps {
  emit: TurnEmitter;
  onOutcome: OnOutcome;
  /** Runs one step on its own: its failure is logged, never thrown past the others. */
  guard(what: string, step: () => unknown): void;
}

/**
 * A restored message the transcript already answers (a reply written before
 * a crash, or a batch the restart split) is not answered again: it gets its
 * outcome now and leaves the turn. True when nothing is left to run.
 */
export function settleAnswered(turn: ActiveTurn, session: SessionHandle, onOutcome: OnOutcome): boolean {
  const answered = turn.messages.filter((m) => m.restored && !m.rerun && session.isAnswered(m.messageId));
  if (answered.length === 0) return false;
  for (const message of answered) {
    onOutcome(message, 'replied', {
      reason: 'already answered in the transcript; not run again',
      ...(message.runId !== turn.runId ? { turnRunId: turn.runId } : {}),
    });
  }
  turn.messages = turn.messages.filter((m) => !answered.includes(m));
  turn.finalSent = turn.messages.length === 0;
  return turn.messages.length === 0;
}

/**
 * How the turn ended, told once to everyone owed it: the `chat` event the
 * runner did not send itself, a `turn_outcome` note in the transcript for a
 * failure or abort, and the outcome of every message the turn answered.
 * Each step fails on its own (a full disk refuses the note, a listener throws).
 */
export function recordOutcome(turn: ActiveTurn, outcome: TurnOutcome, deps: OutcomeDeps): void {
  const event = outcomeEvent(turn, outcome);
  if (event) deps.guard('chat event', () => deps.emit('chat', event, turn.background));
  if (turn.session && (outcome.status === 'failed' || outcome.status === 'aborted')) {
    const session = turn.session;
    deps.guard(`outcome note in ${turn.sessionKey}`, () =>
      session.append({ type: 'custom', customType: 'turn_outcome', data: { runId: turn.runId, status: outcome.status, error: outcome.error } }),
    );
  }
  for (const message of turn.answered()) {
    deps.guard(`outcome of ${message.messageId}`, () =>
      deps.onOutcome(message, outcome.status, {
        ...(outcome.error !== undefined ? { reason: outcome.error } : {}),
        ...(message.runId !== turn.runId ? { turnRunId: turn.runId } : {}),
        ...(outcome.text !== undefined ? { text: outcome.text } : {}),
        ...(outcome.failure !== undefined ? { failure: outcome.failure } : {}),
      }),
    );
  }
}
