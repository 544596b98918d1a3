import type { CommandHost } from '../agent/index.js';
import { ClawError, type SessionSummary } from '../protocol/index.js';
import type { LaneQueue } from '../queue/index.js';
import type { SessionRegistry } from '../sessions/index.js';
import { sessionAdapter } from './agent-turn-runner.js';

export interface SessionServices {
  sessions: SessionRegistry;
  lanes: Pick<LaneQueue, 'abort' | 'laneInfo'>;
  /** Broadcast `sessions.changed` after a command changed a session. */
  changed(key: string, reason: 'created' | 'updated' | 'reset'): void;
  /**
   * Re-queue the session's last user message without appending it again
   * (the inbound journal owns acceptance, so the sessions module supplies it).
   */
  retry(key: string): Promise<{ runId: string }>;
  /** Runs before a transcript is replaced (saves the conversation to memory). */
  beforeReset?(key: string): Promise<void>;
}

/** Slash commands' view of sessions and lanes, over the sessions module's services. */
export function sessionCommandHost(services: SessionServices): CommandHost {
  const { sessions, lanes } = services;
  const summary = (key: string): SessionSummary => {
    const { agentId, entry } = sessions.require(key);
    return { key, agentId, ...entry, ...lanes.laneInfo(key) };
  };
  return {
    async session(key) {
      const ensured = sessions.ensure(key);
      if (ensured.created) services.changed(key, 'created');
      return summary(key);
    },
    async patch(key, patch) {
      if (!sessions.get(key)) sessions.ensure(key);
      sessions.patch(key, patch);
      services.changed(key, 'updated');
      return summary(key);
    },
    async newSession(key, model) {
      await services.beforeReset?.(key);
      if (!sessions.get(key)) sessions.ensure(key);
      sessions.reset(key, model ? { model } : {});
      services.changed(key, 'reset');
      return summary(key);
    },
    async reset(key) {
      if (!sessions.get(key)) throw new ClawError('not_found', `${key} has no transcript yet; nothing to reset.`);
      await services.beforeReset?.(key);
      sessions.reset(key);
      services.changed(key, 'reset');
      return summary(key);
    },
    async abort(key) {
      sessions.resolve(key);
      return lanes.abort(key).aborted;
    },
    retry: (key) => services.retry(key),
    async turnSession(key) {
      if (!sessions.get(key)) sessions.ensure(key);
      return sessionAdapter(await sessions.open(key));
    },
  };
}
