import type { MemoryIndex } from '../../source/memory/index.js';

export interface LabelledQuery {
  query: string;
  /** Any of these files answers it. */
  relevant: string[];
  kind: 'en' | 'zh' | 'mixed' | 'identifier' | 'current' | 'duplicate';
  /** For current-state questions: files holding a superseded answer, which must rank below the current one. */
  stale?: string[];
}

export interface RelevanceReport {
  queries: number;
  recallAt5: number;
  mrr: number;
  /** Current-state questions where a stale file ranked above every relevant one. */
  staleAboveCurrent: number;
  byKind: Record<string, { queries: number; recallAt5: number; mrr: number }>;
  misses: string[];
}

const round = (value: number) => Math.round(value * 1000) / 1000;

/** recall@5 and MRR (first relevant file; 0 past rank 5) over labelled queries. */
export async function evaluate(index: MemoryIndex, labelled: readonly LabelledQuery[]): Promise<RelevanceReport> {
  let found = 0;
  let reciprocal = 0;
  let staleAboveCurrent = 0;
  const kinds = new Map<string, { queries: number; found: number; reciprocal: number }>();
  const misses: string[] = [];
  for (const item of labelled) {
    const { results } = await index.search({ query: item.query, maxResults: 5 });
    const ranked = results.map((hit) => hit.path);
    const rank = ranked.findIndex((path) => item.relevant.includes(path));
    const kind = kinds.get(item.kind) ?? { queries: 0, found: 0, reciprocal: 0 };
    kind.queries++;
    if (rank >= 0) {
      found++;
      reciprocal += 1 / (rank + 1);
      kind.found++;
      kind.reciprocal += 1 / (rank + 1);
    } else misses.push(`${item.query} → ${ranked.join(', ') || 'nothing'}`);
    kinds.set(item.kind, kind);
    const staleRank = ranked.findIndex((path) => item.stale?.includes(path));
    if (item.stale && staleRank >= 0 && (rank < 0 || staleRank < rank)) {
      staleAboveCurrent++;
      misses.push(`stale first: ${item.query} → ${ranked.join(', ')}`);
    }
  }
  const byKind: RelevanceReport['byKind'] = {};
  for (const [name, kind] of kinds)
    byKind[name] = { queries: kind.queries, recallAt5: round(kind.found / kind.queries), mrr: round(kind.reciprocal / kind.queries) };
  return { queries: labelled.length, recallAt5: round(found / labelled.length), mrr: round(reciprocal / labelled.length), staleAboveCurrent, byKind, misses };
}
