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
 * `indexPath` is the SQLite file of the index (`<state>/search/transcripts.sqlite`).
 */
export function sessionsSearchHandler(options: { sessions: SearchableSessions; indexPath: string; now?: () => number }): SessionsSearchHandler {
  const index = new TranscriptSearchIndex(options.indexPath);
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
  handler.close = () => index.close();
  return handler;
}
