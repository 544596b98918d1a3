import { z } from 'zod';
import { lazySchema } from '../lazy-schema.js';
import { defineMethod } from '../define.js';

export const memorySource = lazySchema(() => z.enum(['memory', 'extra']));
export const memorySearchMode = lazySchema(() => z.enum(['hybrid', 'keyword']));

export const memorySearchHit = lazySchema(() =>
  z.strictObject({
    /** Workspace-relative (`memory/2026-01-02.md`) or absolute for extra paths; pass it to memory_get. */
    path: z.string(),
    startLine: z.number().int().min(1),
    endLine: z.number().int().min(1),
    score: z.number(),
    snippet: z.string(),
    source: memorySource,
    /** Why it ranked here; only when the search asked for `explain`. */
    explain: z
      .strictObject({
        /** Query terms (words, identifiers, CJK bigrams) this chunk contains. */
        matched: z.array(z.string()),
        missing: z.array(z.string()),
        /** Keyword score 0..1: the share of the query's terms covered, weighted by rarity. */
        keyword: z.number(),
        /** Cosine similarity 0..1, when the chunk was a vector candidate. */
        vector: z.number().optional(),
        /** Score before recency and decay (hybrid: the fused score, which orders hits). A hit is kept when its keyword or vector score reaches minScore. */
        relevance: z.number(),
        /** Multiplier for a question about the current state (older chunks get less). */
        recency: z.number().optional(),
        /** Multiplier from memory.search.temporalDecay. */
        decay: z.number().optional(),
        /** Day the chunk is about (YYYY-MM-DD) and where that came from. */
        date: z.string(),
        dateFrom: z.enum(['file name', 'heading', 'file time']),
      })
      .optional(),
  }),
);

export const memorySearchResult = lazySchema(() =>
  z.strictObject({
    results: z.array(memorySearchHit),
    mode: memorySearchMode,
    /** Why search is degraded (no provider, vector extension missing, embedding errors); empty when all is well. */
    warnings: z.array(z.string()),
    /** What to change in the query when it could not match anything (e.g. only common words). */
    hint: z.string().optional(),
  }),
);

export const memoryStatusPayload = lazySchema(() =>
  z.strictObject({
    agentId: z.string(),
    indexPath: z.string(),
    workspace: z.string(),
    extraPaths: z.array(z.string()),
    files: z.number().int().min(0),
    chunks: z.number().int().min(0),
    embeddedChunks: z.number().int().min(0),
    mode: memorySearchMode,
    keyword: z.strictObject({ tokenizer: z.string() }),
    vector: z.strictObject({ available: z.boolean(), error: z.string().optional(), dims: z.number().int().optional() }),
    embeddings: z.strictObject({
      state: z.enum(['none', 'ok', 'error']),
      provider: z.string(),
      model: z.string().optional(),
      error: z.string().optional(),
    }),
    syncing: z.boolean(),
    dirty: z.boolean(),
    lastSyncAt: z.number().optional(),
    /** Plain sentences: what is degraded and what to do about it. */
    notes: z.array(z.string()),
  }),
);

export const memorySyncStats = lazySchema(() =>
  z.strictObject({
    filesScanned: z.number().int().min(0),
    filesChanged: z.number().int().min(0),
    filesRemoved: z.number().int().min(0),
    chunksWritten: z.number().int().min(0),
    cacheHits: z.number().int().min(0),
    embedded: z.number().int().min(0),
    pendingEmbeddings: z.number().int().min(0),
    durationMs: z.number().min(0),
  }),
);

const agentId = lazySchema(() => z.string().min(1).max(64).optional());

export const memoryMethods = {
  'memory.status': defineMethod({
    name: 'memory.status',
    description: "Index state of one agent's memory, or of every agent: files, chunks, embeddings, search mode and what is degraded.",
    params: () => z.strictObject({ agentId }).optional(),
    result: () => z.strictObject({ agents: z.array(memoryStatusPayload) }),
    scope: 'read',
    mutating: false,
  }),
  'memory.search': defineMethod({
    name: 'memory.search',
    description: "Hybrid (vector + keyword) search of an agent's memory files.",
    params: () =>
      z.strictObject({
        query: z.string().min(1).max(2000),
        agentId,
        maxResults: z.number().int().min(1).max(100).optional(),
        minScore: z.number().min(0).max(1).optional(),
        /** Add to each hit why it ranked: terms matched, vector score, recency and decay. */
        explain: z.boolean().optional(),
      }),
    result: () => memorySearchResult,
    scope: 'read',
    mutating: false,
  }),
  'memory.reindex': defineMethod({
    name: 'memory.reindex',
    description: 'Bring the index up to date now (force: re-chunk every file); retries embeddings after a quota or auth error.',
    params: () => z.strictObject({ agentId, force: z.boolean().optional(), idempotencyKey: z.string().min(1).max(128).optional() }).optional(),
    result: () => z.strictObject({ agentId: z.string(), stats: memorySyncStats, status: memoryStatusPayload }),
    scope: 'write',
    mutating: true,
  }),
};
