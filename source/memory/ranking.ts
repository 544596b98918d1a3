import { keywordTokens } from './text-tokens.js';

export interface Candidate {
  id: number;
  path: string;
  text: string;
  /** Normalised to 0..1 within this query's pool. */
  keyword: number;
  /** Cosine similarity clamped to 0..1; 0 when the chunk was not a vector candidate. */
  vector: number;
  score: number;
}

/** BM25 ranks (lower is better) → 0..1 relative to the best hit of this query. */
export function normaliseBm25(ranks: { id: number; rank: number }[]): Map<number, number> {
  const best = Math.max(0, ...ranks.map((row) => -row.rank));
  return new Map(ranks.map((row) => [row.id, best > 0 ? Math.max(0, -row.rank) / best : 1]));
}

/** Cosine distance (0..2) → similarity clamped to 0..1. */
export function distanceToSimilarity(distance: number): number {
  return Math.min(1, Math.max(0, 1 - distance));
}

const datedNote = /^memory\/(?:.*\/)?(\d{4})-(\d{2})-(\d{2})[^/]*\.md$/;

/** The day a dated note `memory/YYYY-MM-DD*.md` is about, in epoch ms; undefined for evergreen files. */
export function datedNoteTime(path: string): number | undefined {
  const match = datedNote.exec(path);
  if (!match) return undefined;
  const time = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return Number.isNaN(time) ? undefined : time;
}

/** Halves the score of dated notes every `halfLifeDays`; evergreen files and future dates keep theirs. */
export function applyTemporalDecay(candidates: Candidate[], now: number, halfLifeDays: number): void {
  for (const candidate of candidates) {
    const time = datedNoteTime(candidate.path);
    if (time === undefined) continue;
    const ageDays = Math.max(0, (now - time) / 86_400_000);
    candidate.score *= 0.5 ** (ageDays / halfLifeDays);
  }
}

function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const token of a) if (b.has(token)) shared++;
  return shared / (a.size + b.size - shared);
}

/**
 * Maximal marginal relevance: picks, one at a time, the candidate with the
 * best λ·relevance − (1−λ)·(similarity to what is already picked), so near
 * duplicates (overlapping chunks, repeated daily notes) do not fill the list.
 */
export function mmrRerank(sorted: Candidate[], lambda: number, limit: number): Candidate[] {
  const tokens = new Map(sorted.map((c) => [c.id, new Set(keywordTokens(c.text))]));
  const remaining = [...sorted];
  const picked: Candidate[] = [];
  while (remaining.length > 0 && picked.length < limit) {
    let bestIndex = 0;
    let bestValue = -Infinity;
    remaining.forEach((candidate, index) => {
      const redundancy = Math.max(0, ...picked.map((p) => jaccard(tokens.get(candidate.id)!, tokens.get(p.id)!)));
      const value = lambda * candidate.score - (1 - lambda) * redundancy;
      if (value > bestValue) { bestValue = value; bestIndex = index; }
    });
    picked.push(remaining.splice(bestIndex, 1)[0]!);
  }
  return picked;
}

/** The start of a chunk for display, cut at a line end near `max` characters. */
export function makeSnippet(text: string, max = 700): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf('\n', max);
  return `${text.slice(0, cut > max / 2 ? cut : max)}…`;
}
