import type { ParamsOf, ResultOf } from '../../protocol/index.js';
import type { SearchSource } from './transcript-search-index.js';
import { TranscriptSearchIndex } from './transcript-search-index.js';

const DEFAULT_LIMIT = 20;

/** The part of the session registry search needs: the current transcript of every key. */
export interface SearchableSessions {
  list(agentId?: string): Array<{ key: string; agentId: string; entry: { sessionId: string } }>;
  transcriptPath(agentId: string, sessionId: string): string;
}

export interface SessionsSearchHandler {
  (params: ParamsOf<'sessions.search'>): Promise<ResultOf<'sessions.search'>>;
  close(): void;
}

/**
 * The `sessions.search` RPC handler. Each call first catches the index up
 * with what was appended to the transcripts since the last call (a stat per
 * session, then only the new bytes), so it needs no hook into the writers.
 * The index (and the search library with it) is made by the first call, so a
 * gateway that nobody searches never loads it.
 */
export function sessionsSearchHandler(options: { sessions: SearchableSessions }): SessionsSearchHandler {
  let index: Promise<TranscriptSearchIndex> | undefined;
  const handler = (async (params) => {
    // A stopwatch for tookMs, not the time of day: performance.now, not the Clock.
    const started = performance.now();
    // Concurrent first calls share one index; after the await, catch-up and lookup run without yielding.
    index ??= TranscriptSearchIndex.open().catch((error: unknown) => {
      // A failed load is not remembered: the next call tries again.
      index = undefined;
      throw error;
    });
    const current = await index;
    const sources: SearchSource[] = options.sessions.list().map(({ key, agentId, entry }) => ({
      sessionKey: key,
      agentId,
      sessionId: entry.sessionId,
      file: options.sessions.transcriptPath(agentId, entry.sessionId),
    }));
    current.sync(sources);
    const hits = current.search(params.query, { agentId: params.agentId, limit: params.limit ?? DEFAULT_LIMIT });
    return { hits, tookMs: Math.max(0, performance.now() - started) };
  }) as SessionsSearchHandler;
  // The index is memory only: closing drops it, and a later call rebuilds it from the transcripts.
  handler.close = () => {
    index = undefined;
  };
  return handler;
}
