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
  (params: ParamsOf<'sessions.search'>): ResultOf<'sessions.search'>;
  close(): void;
}

/**
 * The `sessions.search` RPC handler. Each call first catches the index up
 * with what was appended to the transcripts since the last call (a stat per
 * session, then only the new bytes), so it needs no hook into the writers.
 */
export function sessionsSearchHandler(options: { sessions: SearchableSessions; now?: () => number }): SessionsSearchHandler {
  let index = new TranscriptSearchIndex();
  const clock = options.now ?? (() => performance.now());
  const handler = ((params) => {
    const started = clock();
    const sources: SearchSource[] = options.sessions.list().map(({ key, agentId, entry }) => ({
      sessionKey: key,
      agentId,
      sessionId: entry.sessionId,
      file: options.sessions.transcriptPath(agentId, entry.sessionId),
    }));
    index.sync(sources);
    const hits = index.search(params.query, { agentId: params.agentId, limit: params.limit ?? DEFAULT_LIMIT });
    return { hits, tookMs: Math.max(0, clock() - started) };
  }) as SessionsSearchHandler;
  // The index is memory only: closing drops it, and a later call rebuilds it from the transcripts.
  handler.close = () => {
    index = new TranscriptSearchIndex();
  };
  return handler;
}
