import type { ContextPayload, EventFrame } from '../protocol/index.js';
import type { EventBus } from './event-bus.js';

/**
 * Keeps the latest context report of each session for the hello snapshot,
 * whoever published it (a turn, /context, /compact), and replaces a reset
 * session's report at once: after /new every client shows the new session's
 * numbers, not the old ones until the next turn.
 */
export function trackContextReports(
  events: EventBus,
  latest: Map<string, ContextPayload>,
  refresh: (sessionKey: string) => Promise<void>,
  warn: (message: string) => void,
): () => void {
  return events.subscribe((record) => {
    if (record.event !== 'context' && record.event !== 'sessions.changed') return;
    const { payload } = JSON.parse(record.text) as EventFrame;
    if (record.event === 'context') {
      const report = payload as ContextPayload;
      latest.set(report.sessionKey, report);
      return;
    }
    const change = payload as { key: string; reason: string };
    if (change.reason !== 'reset') return;
    latest.delete(change.key);
    refresh(change.key).catch((error: unknown) => warn(`context report of ${change.key} after a reset not published: ${String(error)}`));
  });
}
