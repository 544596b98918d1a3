import type { EventBus } from './event-bus.js';
import type { Lifecycle } from './lifecycle.js';
import type { SessionsService } from './sessions-service.js';
import type { TurnHub } from './turns.js';

/**
 * The core's own subscribers to turn events: clients get the runtime's
 * stream serialised (a background turn — heartbeat, cron system event —
 * reaches no chat view: clients see it through the schedule events), the
 * session summary changes when a turn ends, and lifecycle hooks hear
 * `turn:start` and `turn:end`. Returns the unsubscribers.
 */
export function wireTurns(turns: TurnHub, events: EventBus, lifecycle: Lifecycle, sessions: Pick<SessionsService, 'changed'>): Array<() => void> {
  return [
    turns.onRuntime((record) => {
      if (record.background) return;
      if (record.event === 'chat') events.emit('chat', record.payload);
      else events.emit('agent', record.payload);
    }),
    turns.on('turn.start', ({ sessionKey, runId }) => void lifecycle.emit('turn:start', { sessionKey, runId })),
    turns.on('turn.end', ({ sessionKey, runId, status }) => {
      sessions.changed(sessionKey, 'updated');
      void lifecycle.emit('turn:end', { sessionKey, runId, status });
    }),
  ];
}
