import { z } from 'zod';
import { lazySchema } from '../lazy-schema.js';
import { defineMethod } from '../define.js';

export const searchHit = lazySchema(() =>
  z.strictObject({
    sessionKey: z.string(),
    sessionId: z.string(),
    /** The transcript entry the text is from, for `sessions.history` paging and the jump. */
    entryId: z.string(),
    role: z.enum(['user', 'assistant']),
    timestamp: z.number(),
    /** A window of the message around the first match, on one line. */
    snippet: z.string(),
    /** [start, end) UTF-16 ranges of matches inside `snippet`. */
    highlights: z.array(z.tuple([z.number().int().min(0), z.number().int().min(0)])),
    /** Higher is better; only meaningful within one reply. */
    score: z.number(),
  }),
);
export type SearchHit = z.infer<typeof searchHit>;

export const searchMethods = {
  'sessions.search': defineMethod({
    name: 'sessions.search',
    description: 'Full-text search of the user and assistant messages in every session of an agent (CJK included), best first.',
    params: () =>
      z.strictObject({
        query: z.string().trim().min(1, 'type something to search for').max(500),
        agentId: z.string().min(1).optional(),
        limit: z.number().int().min(1).max(200).optional(),
      }),
    result: () => z.strictObject({ hits: z.array(searchHit), tookMs: z.number().min(0) }),
    scope: 'read',
    mutating: false,
  }),
};
