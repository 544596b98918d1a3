import type { CommandHost, ScheduleCommandHost } from '../agent/index.js';
import { ClawError } from '../protocol/index.js';
import type { LaneQueue } from '../queue/index.js';
import { sessionAdapter } from './agent-turn-runner.js';
import type { InboundService } from './inbound-service.js';
import type { Lifecycle } from './lifecycle.js';
import type { SessionsService } from './sessions-service.js';

/** Slash commands' view of sessions and lanes. */
export function sessionCommandHost(
  sessions: SessionsService,
  lanes: Pick<LaneQueue, 'abort' | 'laneInfo'>,
  inbound: Pick<InboundService, 'retry'>,
  lifecycle: Lifecycle,
  schedule?: ScheduleCommandHost,
): CommandHost {
  const { registry } = sessions;
  return {
    ...(schedule ? { schedule } : {}),
    session: async (key) => sessions.ensure(key),
    async patch(key, patch) {
      if (!registry.get(key)) registry.ensure(key);
      registry.patch(key, patch);
      sessions.changed(key, 'updated');
      return sessions.summaryOf(key);
    },
    newSession: (key, model) => sessions.reset(key, { kind: 'new', ...(model ? { model } : {}) }),
    async reset(key) {
      if (!registry.get(key)) throw new ClawError('not_found', `${key} has no transcript yet; nothing to reset.`);
      return sessions.reset(key, { kind: 'reset' });
    },
    async abort(key) {
      registry.resolve(key);
      await lifecycle.emit('command:stop', { sessionKey: key });
      return lanes.abort(key).aborted;
    },
    retry: (key) => inbound.retry(key),
    running: (key) => lanes.laneInfo(key).running,
    async turnSession(key) {
      if (!registry.get(key)) registry.ensure(key);
      return sessionAdapter(await registry.open(key));
    },
  };
}
