import { z } from 'zod';
import { defineMethod } from '../define.js';

export const memorySource = z.enum(['memory', 'extra']);
export const memorySearchMode = z.enum(['hybrid', 'keyword']);

export const memorySearchHit = z.strictObject({
  /** Workspace-relative (`memory/2026-01-02.md`) or absolute for extra paths; pass it to memory_get. */
  path: z.string(),
  startLine: z.number().int().min(1),
  endLine: z.number().int().min(1),
  score: z.number(),
  snippet: z.string(),
  source: memorySource,
});

export const memorySearchResult = z.strictObject({
  results: z.array(memorySearchHit),
  mode: memorySearchMode,
  /** Why search is degraded (no provider, vector extension missing, embedding errors); empty when all is well. */
  warnings: z.array(z.string()),
});

export const memoryStatusPayload = z.strictObject({
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
});

export const memorySyncStats = z.strictObject({
  filesScanned: z.number().int().min(0),
  filesChanged: z.number().int().min(0),
  filesRemoved: z.number().int().min(0),
  chunksWritten: z.number().int().min(0),
  cacheHits: z.number().int().min(0),
  embedded: z.number().int().min(0),
  pendingEmbeddings: z.number().int().min(0),
  durationMs: z.number().min(0),
});

const agentId = z.string().min(1).max(64).optional();

export const memoryMethods = {
  'memory.status': defineMethod({
    name: 'memory.status',
    description: 'Index state of one agent\'s memory, or of every agent: files, chunks, embeddings, search mode and what is degraded.',
    params: z.strictObject({ agentId }).optional(),
    result: z.strictObject({ agents: z.array(memoryStatusPayload) }),
    scope: 'read',
    mutating: false,
  }),
  'memory.search': defineMethod({
    name: 'memory.search',
    description: 'Hybrid (vector + keyword) search of an agent\'s memory files.',
    params: z.strictObject({
      query: z.string().min(1).max(2000),
      agentId,
      maxResults: z.number().int().min(1).max(100).optional(),
      minScore: z.number().min(0).max(1).optional(),
    }),
    result: memorySearchResult,
    scope: 'read',
    mutating: false,
  }),
  'memory.reindex': defineMethod({
    name: 'memory.reindex',
    description: 'Bring the index up to date now (force: re-chunk every file); retries embeddings after a quota or auth error.',
    params: z.strictObject({ agentId, force: z.boolean().optional(), idempotencyKey: z.string().min(1).max(128).optional() }).optional(),
    result: z.strictObject({ agentId: z.string(), stats: memorySyncStats, status: memoryStatusPayload }),
    scope: 'write',
    mutating: true,
  }),
};
