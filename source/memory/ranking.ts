import { datedNoteTime } from './note-dates.js';
import { keywordTokens } from './text-tokens.js';

export interface Candidate {
  id: number;
  path: string;
  text: string;
  /** Keyword score, 0..1 (coverage of the query's terms); 0 when not a keyword candidate. */
  keyword: number;
  /** Cosine similarity clamped to 0..1; undefined when the chunk was not a vector candidate. */
  vector: number | undefined;
  /** Relevance before recency and decay (hybrid: the fused score). */
  relevance: number;
  score: number;
  noteTime: number;
  /** Multiplier from a "current state" question, when one applied. */
  recency?: number;
  /** Multiplier from temporal decay, when it applied. */
  decay?: number;
}

const DAY_MS = 86_400_000;

/** Cosine distance (0..2) → similarity clamped to 0..1. */
export function distanceToSimilarity(distance: number): number {
  return Math.min(1, Math.max(0, 1 - distance));
}

/** Halves the score of dated notes every `halfLifeDays`; evergreen files and future dates keep theirs. */
export function applyTemporalDecay(candidates: Candidate[], now: number, halfLifeDays: number): void {
  for (const candidate of candidates) {
    const time = datedNoteTime(candidate.path);
    if (time === undefined) continue;
    const ageDays = Math.max(0, (now - time) / DAY_MS);
    candidate.decay = 0.5 ** (ageDays / halfLifeDays);
    candidate.score *= candidate.decay;
  }
}

// A stale note keeps this much of its score, so one that matches far better can still be shown, just lower.
const RECENCY_FLOOR = 0.25;

/**
 * For questions about the current state: scores fall with the age of a chunk
 * relative to the newest candidate (not to today, so a year-old archive still
 * ranks its latest note first), halving every `halfLifeDays`.
 */
export function applyRecency(candidates: Candidate[], halfLifeDays: number): void {
  if (candidates.length === 0) return;
  const newest = Math.max(...candidates.map((c) => c.noteTime));
  for (const candidate of candidates) {
    const ageDays = Math.max(0, (newest - candidate.noteTime) / DAY_MS);
    candidate.recency = RECENCY_FLOOR + (1 - RECENCY_FLOOR) * 0.5 ** (ageDays / halfLifeDays);
    candidate.score *= candidate.recency;
  }
}

/** Best score first; equal scores put the newer chunk first, then index order. */
export function byScoreThenNewest(a: Candidate, b: Candidate): number {
  const diff = b.score - a.score;
  if (Math.abs(diff) > 1e-9) return diff;
  return b.noteTime - a.noteTime || a.id - b.id;
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
      if (value > bestValue) {
        bestValue = value;
        bestIndex = index;
      }
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
