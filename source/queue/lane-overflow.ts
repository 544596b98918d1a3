import type { TurnEmitter } from './active-turn.js';
import type { OutcomeStatus } from './journal-records.js';
import type { Lane } from './lane.js';
import type { QueueConfig } from './modes.js';
import type { QueuedMessage } from './turn-runner.js';

/** What dropping a message needs: telling its sender and recording its outcome. */
export interface DropDeps {
  emit: TurnEmitter;
  onOutcome(message: QueuedMessage, status: OutcomeStatus, detail: { reason?: string }): void;
}

/**
 * Applies the per-lane cap and the overflow policy (`queue.drop`): `new`
 * refuses the incoming message, `old` drops the oldest waiting one,
 * `summarize` drops it too but keeps it for a one-line note in the next
 * turn. Every dropped message's sender is told. False when the incoming
 * message itself is dropped.
 */
export function makeRoom(lane: Lane, incoming: QueuedMessage, config: Pick<QueueConfig, 'cap' | 'drop'>, deps: DropDeps): boolean {
  const { cap, drop } = config;
  const depth = lane.queue.length + (lane.active?.steered.length ?? 0);
  if (depth < cap) return true;
  const notice = `The queue for ${lane.key} is full (${cap} waiting)`;
  if (drop === 'new') {
    dropMessage(deps, incoming, `${notice}; this message was not run. Send it again once the session catches up.`);
    return false;
  }
  const victim = lane.queue.length > 0 ? lane.queue.shift()! : lane.active!.steered.shift()!;
  if (drop === 'summarize') {
    lane.overflow.push(victim);
    dropMessage(deps, victim, `${notice}; this message was dropped and a one-line summary of it goes to the next turn.`);
  } else {
    dropMessage(deps, victim, `${notice}; this older message was dropped to make room. Send it again if it still matters.`);
  }
  return true;
}

function dropMessage(deps: DropDeps, message: QueuedMessage, reason: string): void {
  deps.emit(
    'chat',
    {
      runId: message.runId,
      sessionKey: message.sessionKey,
      state: 'error',
      message: reason,
      hint: 'Raise queue.cap or change queue.drop in claw.json to keep more.',
    },
    message.background === true,
  );
  deps.onOutcome(message, 'dropped', { reason });
}
