import type { ChatEventPayload } from '../protocol/index.js';
import type { ActiveTurn } from './active-turn.js';
import type { QueuedMessage, SessionHandle, TurnOutcome, NewTranscriptEntry } from './turn-runner.js';

/** Appends the user messages a turn answers, skipping any already there (a re-run after a crash). */
export function appendUserMessages(session: SessionHandle, messages: readonly QueuedMessage[]): void {
  const fresh = messages.filter((m) => !session.hasMessage(m.messageId));
  if (fresh.length === 0) return;
  session.append(
    ...fresh.map(
      (m): NewTranscriptEntry => ({
        type: 'message',
        role: 'user',
        content: m.text,
        meta: {
          channel: m.channel,
          messageId: m.messageId,
          ...(m.senderId !== undefined ? { senderId: m.senderId } : {}),
          ...(m.senderName !== undefined ? { senderName: m.senderName } : {}),
          ...(m.untrusted ? { untrusted: true } : {}),
          ...(m.principal !== undefined && m.principal !== 'owner' ? { principal: m.principal } : {}),
          ...(m.background ? { synthetic: m.channel } : {}),
        },
      }),
    ),
  );
}

const SUMMARY_CHARS = 80;

/** The one-line-per-message note that replaces messages dropped by the `summarize` policy. */
export function overflowNote(dropped: readonly QueuedMessage[]): NewTranscriptEntry {
  const lines = dropped.map((m) => {
    const flat = m.text.replace(/\s+/g, ' ').trim();
    return `- ${flat.length > SUMMARY_CHARS ? `${flat.slice(0, SUMMARY_CHARS - 1)}…` : flat}`;
  });
  return {
    type: 'message',
    role: 'user',
    content: `[${dropped.length} earlier message(s) were dropped because the queue was full; their beginnings:]\n${lines.join('\n')}`,
    meta: { synthetic: 'queue-overflow' },
  };
}

/** The `chat` event the lane owes the sender for an outcome the runner did not announce itself. */
export function outcomeEvent(turn: ActiveTurn, outcome: TurnOutcome): ChatEventPayload | undefined {
  const base = { runId: turn.runId, sessionKey: turn.sessionKey };
  switch (outcome.status) {
    case 'failed':
      return {
        ...base,
        state: 'error',
        message: outcome.error ?? 'The turn failed without saying why; see the gateway log.',
        ...(outcome.hint ? { hint: outcome.hint } : {}),
        ...(outcome.failure ? { failure: outcome.failure } : {}),
      };
    case 'aborted':
      return { ...base, state: 'aborted', reason: outcome.error ?? 'aborted' };
    case 'replied':
      return turn.finalSent ? undefined : { ...base, state: 'final', text: outcome.text ?? '' };
    case 'suppressed':
      return turn.finalSent ? undefined : { ...base, state: 'final', text: '', suppressed: true };
  }
}

/** The transcript note of a message that started running again after a crash. */
export const RERUN_ENTRY = 'turn_rerun';

/** Marks that a message restored after a crash started running again (what the crash-loop guard counts runs by). */
export function rerunEntry(messageId: string, runId: string): NewTranscriptEntry {
  return { type: 'custom', customType: RERUN_ENTRY, data: { messageId, runId } };
}
