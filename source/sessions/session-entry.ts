import { z } from 'zod';
import { lazySchema, sessionSummary } from '../protocol/index.js';

/**
 * One key's record in `agents/<agentId>/sessions/sessions.json`: the wire
 * summary without what the path and the live lanes supply (key, agentId,
 * running, queued). Counters default so older files still load, and unknown
 * keys are dropped rather than refused.
 */
export const sessionEntry = lazySchema(() => {
  const summary = sessionSummary.shape;
  return z.object(sessionSummary.omit({ key: true, agentId: true, running: true, queued: true }).shape).extend({
    tokens: summary.tokens.default({ input: 0, output: 0, context: 0 }),
    costUsd: summary.costUsd.default(0),
    compactionCount: summary.compactionCount.default(0),
  });
});
export type SessionEntry = z.infer<typeof sessionEntry>;

export const sessionStoreFile = lazySchema(() =>
  z.object({
    version: z.literal(1),
    sessions: z.record(z.string(), sessionEntry),
  }),
);
export type SessionStoreFile = z.infer<typeof sessionStoreFile>;
