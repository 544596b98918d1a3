import type { IndexStore } from './index-store.js';
import { candidateExpression, type ParsedQuery, type QueryTerm } from './query.js';

export interface KeywordHit {
  id: number;
  /** 0..1: the share of the query's terms this chunk contains, rarer terms counting more, nudged by BM25 within the pool. */
  score: number;
  matched: string[];
  missing: string[];
}

/**
 * How much a term says about a chunk: rarer is more. Flatter than BM25's IDF,
 * because a personal archive is small and a word in two of five notes is not
 * noise.
 */
function rarity(chunks: number, docFreq: number): number {
  return Math.log(1 + chunks / docFreq);
}

// BM25 decides order among chunks that cover the query equally; coverage decides what the score means.
const BM25_SHARE = 0.15;
// BM25 and coverage mostly agree; a wider BM25 pool catches the chunks where they do not.
const POOL_WIDENING = 2;

/**
 * Keyword scores that mean the same in every query. Raw BM25 grows with the
 * number and rarity of terms, so it cannot be compared across queries and a
 * cut-off on it says nothing. Coverage can: 1 when a chunk holds every term,
 * about 0.5 when it holds the rarer half. A CJK bigram that occurs in no note
 * is a join of two words, not a word the user asked for, so it does not
 * count against a chunk.
 */
export function scoreKeyword(store: IndexStore, parsed: ParsedQuery, pool: number): KeywordHit[] {
  const expression = candidateExpression(parsed);
  if (!expression) return [];
  const chunks = store.chunkCount();
  const present = parsed.terms.map((term) => {
    const ids = store.termMatches(term.match);
    return { term, ids, docFreq: ids.size };
  });

  // A word no note contains weighs as much as the rarest word that occurs: never more, or one typo would sink every match.
  const seenWeights = present.filter((entry) => entry.docFreq > 0).map((entry) => rarity(chunks, entry.docFreq));
  const unseen = Math.max(...seenWeights, 0);
  const weight = new Map<QueryTerm, number>();
  const groups = new Map<number, typeof present>();
  for (const entry of present) groups.set(entry.term.group, [...(groups.get(entry.term.group) ?? []), entry]);
  let total = 0;
  for (const members of groups.values()) {
    const cjk = members[0]!.term.kind === 'cjk';
    if (cjk && !members.some((entry) => entry.docFreq > 0)) {
      total += unseen;
      continue;
    }
    for (const entry of members) {
      const value = entry.docFreq > 0 ? rarity(chunks, entry.docFreq) : cjk ? 0 : unseen;
      weight.set(entry.term, value);
      total += value;
    }
  }

  // BM25 over all terms picks the pool (FTS5 ranks it in one pass); coverage then says what each hit is worth.
  const ranked = store.keywordSearch(expression, pool * POOL_WIDENING);
  const best = Math.max(...ranked.map((row) => -row.rank), 0);
  return ranked.map((row) => {
    const matched: string[] = [];
    const missing: string[] = [];
    let covered = 0;
    for (const entry of present) {
      if (entry.ids.has(row.id)) {
        matched.push(entry.term.label);
        covered += weight.get(entry.term) ?? 0;
      } else if ((weight.get(entry.term) ?? 0) > 0 || entry.term.kind !== 'cjk') missing.push(entry.term.label);
    }
    const coverage = total > 0 ? Math.min(1, covered / total) : 0;
    const bm25 = best > 0 ? Math.max(0, -row.rank) / best : 1;
    return { id: row.id, score: coverage * (1 - BM25_SHARE + BM25_SHARE * bm25), matched, missing };
  });
}
