import { fuseScores, type FusionMethod } from './fusion.js';
import type { IndexStore } from './index-store.js';
import { scoreKeyword, type KeywordHit } from './keyword-scoring.js';
import { parseQuery, type ParsedQuery } from './query.js';
import { applyRecency, applyTemporalDecay, byScoreThenNewest, distanceToSimilarity, makeSnippet, mmrRerank, type Candidate } from './ranking.js';
import type { MemorySearchHit, MemorySearchParams, MemorySearchResult } from './types.js';

export interface SearchSettings {
  maxResults: number;
  minScore: number;
  vectorWeight: number;
  textWeight: number;
  candidateMultiplier: number;
  fusion: FusionMethod;
  mmr: { enabled: boolean; lambda: number };
  temporalDecay: { enabled: boolean; halfLifeDays: number };
}

export const ONLY_COMMON_WORDS_HINT =
  'The query has only common words (what, is, the, 什么 …), which every note contains; name the thing you are looking for, e.g. "NAS IP" or "小李 喝茶".';

const round = (value: number) => Math.round(value * 1000) / 1000;

function explainHit(candidate: Candidate, keyword: KeywordHit | undefined, chunk: { noteTimeFrom: string }): NonNullable<MemorySearchHit['explain']> {
  return {
    matched: keyword?.matched ?? [],
    missing: keyword?.missing ?? [],
    keyword: round(candidate.keyword),
    ...(candidate.vector !== undefined ? { vector: round(candidate.vector) } : {}),
    relevance: round(candidate.relevance),
    ...(candidate.recency !== undefined ? { recency: round(candidate.recency) } : {}),
    ...(candidate.decay !== undefined ? { decay: round(candidate.decay) } : {}),
    date: new Date(candidate.noteTime).toISOString().slice(0, 10),
    dateFrom: chunk.noteTimeFrom as NonNullable<MemorySearchHit['explain']>['dateFrom'],
  };
}

/**
 * Hybrid search over one index. Keyword candidates are scored by how much of
 * the question they cover (an absolute 0..1, so minScore means "a real
 * match"); with a query vector, both candidate lists are normalised the same
 * way (by rank, by default) and fused by weight to order the hits, and a hit
 * is kept when its keyword score or its cosine similarity reaches minScore.
 * Questions about the current state, and ties, put newer chunks first.
 */
export function searchIndex(
  store: IndexStore,
  params: MemorySearchParams,
  settings: SearchSettings,
  context: { queryVector: Float32Array | undefined; now: number; warnings: string[]; parsed?: ParsedQuery },
): MemorySearchResult {
  const hybrid = context.queryVector !== undefined;
  const mode = hybrid ? 'hybrid' : 'keyword';
  const parsed = context.parsed ?? parseQuery(params.query);
  if (parsed.onlyStopWords) return { mode, warnings: context.warnings, results: [], hint: ONLY_COMMON_WORDS_HINT };
  const maxResults = params.maxResults ?? settings.maxResults;
  const minScore = params.minScore ?? settings.minScore;
  const pool = maxResults * settings.candidateMultiplier;
  const keywordHits = new Map(scoreKeyword(store, parsed, pool).map((hit) => [hit.id, hit]));
  const keyword = new Map([...keywordHits].map(([id, hit]) => [id, hit.score]));
  const vector = new Map<number, number>();
  if (context.queryVector) for (const row of store.vectorSearch(context.queryVector, pool)) vector.set(row.id, distanceToSimilarity(row.distance));
  const relevance = hybrid ? fuseScores(keyword, vector, { keyword: settings.textWeight, vector: settings.vectorWeight }, settings.fusion) : keyword;
  const chunks = store.chunksByIds([...relevance.keys()]);

  let candidates: Candidate[] = [];
  for (const [id, chunk] of chunks) {
    const score = relevance.get(id) ?? 0;
    const k = keyword.get(id) ?? 0;
    const v = vector.get(id);
    // Fused scores only order: normalised lists crown a best hit even for a query nothing answers,
    // and a keyword-only hit would fall under any cut-off. The cut-off asks for real evidence from either side.
    if (Math.max(k, v ?? 0) < minScore) continue;
    candidates.push({ id, path: chunk.path, text: chunk.text, keyword: k, vector: v, relevance: score, score, noteTime: chunk.noteTime });
  }
  if (parsed.recency) applyRecency(candidates, settings.temporalDecay.halfLifeDays);
  if (settings.temporalDecay.enabled) applyTemporalDecay(candidates, context.now, settings.temporalDecay.halfLifeDays);
  candidates.sort(byScoreThenNewest);
  if (settings.mmr.enabled) candidates = mmrRerank(candidates, settings.mmr.lambda, maxResults);

  return {
    mode,
    warnings: context.warnings,
    results: candidates.slice(0, maxResults).map((c) => {
      const chunk = chunks.get(c.id)!;
      return {
        path: chunk.path,
        startLine: chunk.startLine,
        endLine: chunk.endLine,
        score: round(c.score),
        snippet: makeSnippet(chunk.text),
        source: chunk.source,
        ...(params.explain ? { explain: explainHit(c, keywordHits.get(c.id), chunk) } : {}),
      };
    }),
  };
}
