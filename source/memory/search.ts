import type { IndexStore } from './index-store.js';
import { applyTemporalDecay, distanceToSimilarity, makeSnippet, mmrRerank, normaliseBm25, type Candidate } from './ranking.js';
import { buildMatchExpression } from './text-tokens.js';
import type { MemorySearchParams, MemorySearchResult } from './types.js';

export interface SearchSettings {
  maxResults: number;
  minScore: number;
  vectorWeight: number;
  textWeight: number;
  candidateMultiplier: number;
  mmr: { enabled: boolean; lambda: number };
  temporalDecay: { enabled: boolean; halfLifeDays: number };
}

/**
 * Hybrid search over one index: BM25 and vector KNN each return a pool of
 * maxResults × multiplier candidates, scores are normalised to 0..1 and fused
 * by weight. Without a query vector the keyword score alone is used.
 */
export function searchIndex(
  store: IndexStore,
  params: MemorySearchParams,
  settings: SearchSettings,
  context: { queryVector: Float32Array | undefined; now: number; warnings: string[] },
): MemorySearchResult {
  const maxResults = params.maxResults ?? settings.maxResults;
  const minScore = params.minScore ?? settings.minScore;
  const pool = maxResults * settings.candidateMultiplier;
  const match = buildMatchExpression(params.query);
  const keyword = normaliseBm25(match ? store.keywordSearch(match, pool) : []);
  const vector = new Map<number, number>();
  if (context.queryVector) for (const row of store.vectorSearch(context.queryVector, pool)) vector.set(row.id, distanceToSimilarity(row.distance));
  const hybrid = context.queryVector !== undefined;
  const weightSum = settings.vectorWeight + settings.textWeight || 1;
  const chunks = store.chunksByIds([...new Set([...keyword.keys(), ...vector.keys()])]);

  let candidates: Candidate[] = [];
  for (const [id, chunk] of chunks) {
    const k = keyword.get(id) ?? 0;
    const v = vector.get(id) ?? 0;
    const score = hybrid ? (settings.vectorWeight * v + settings.textWeight * k) / weightSum : k;
    candidates.push({ id, path: chunk.path, text: chunk.text, keyword: k, vector: v, score });
  }
  if (settings.temporalDecay.enabled) applyTemporalDecay(candidates, context.now, settings.temporalDecay.halfLifeDays);
  candidates.sort((a, b) => b.score - a.score || a.id - b.id);
  candidates = candidates.filter((c) => c.score >= minScore);
  if (settings.mmr.enabled) candidates = mmrRerank(candidates, settings.mmr.lambda, maxResults);

  return {
    mode: hybrid ? 'hybrid' : 'keyword',
    warnings: context.warnings,
    results: candidates.slice(0, maxResults).map((c) => {
      const chunk = chunks.get(c.id)!;
      return {
        path: chunk.path,
        startLine: chunk.startLine,
        endLine: chunk.endLine,
        score: Math.round(c.score * 1000) / 1000,
        snippet: makeSnippet(chunk.text),
        source: chunk.source,
      };
    }),
  };
}
