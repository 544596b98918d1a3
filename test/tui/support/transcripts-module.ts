import type { TestModule } from '../../support/gateway-harness.js';
import { SessionRegistry } from '../../../source/sessions/index.js';
import { sessionsSearchHandler } from '../../../source/sessions/search/index.js';

/**
 * Real transcripts behind sessions.list, sessions.history and sessions.search,
 * the way the sessions module will mount the search handler. `seed` writes
 * messages first (key → user/assistant texts, alternating).
 */
export function transcriptsModule(seed: Record<string, string[]>): TestModule {
  return async ({ config, paths, now }) => {
    const registry = new SessionRegistry({ paths, config, clock: { now } });
    for (const [key, texts] of Object.entries(seed)) {
      registry.ensure(key);
      const session = await registry.open(key);
      texts.forEach((text, i) => {
        session.append(
          i % 2 === 0 ? { type: 'message', role: 'user', content: text } : { type: 'message', role: 'assistant', content: [{ type: 'text', text }] },
        );
      });
      await session.flush();
    }
    const search = sessionsSearchHandler({ sessions: registry });
    const summary = (key: string, agentId: string, entry: ReturnType<SessionRegistry['list']>[number]['entry']) => ({
      key,
      agentId,
      ...entry,
      running: false,
      queued: 0,
    });
    return {
      name: 'transcripts',
      handlers: {
        'sessions.list': () => ({ sessions: registry.list().map(({ key, agentId, entry }) => summary(key, agentId, entry)) }),
        'sessions.history': ({ key, beforeId, limit }) => registry.history(key, beforeId, limit ?? 100),
        'sessions.search': (params) => search(params),
      },
      snapshot: () => ({ sessions: registry.list().map(({ key, agentId, entry }) => summary(key, agentId, entry)) }),
      async close() {
        search.close();
        await registry.close();
      },
    };
  };
}
