/** How hybrid search puts keyword and vector candidates on one scale. */
export type FusionMethod = 'minmax' | 'rank';

/** Reciprocal-rank constant: how fast credit falls off with rank (60 is the usual choice). */
const RRF_K = 60;

/** Scores → 0..1 within the list: the best becomes 1, the worst 0 (all 1 when they are equal). */
export function minMax(scores: Map<number, number>): Map<number, number> {
  const values = [...scores.values()];
  const low = Math.min(...values);
  const high = Math.max(...values);
  return new Map([...scores].map(([id, value]) => [id, high > low ? (value - low) / (high - low) : 1]));
}

/** Rank → 1/(k + rank), scaled so the first of the list gets 1. */
export function rankScores(scores: Map<number, number>): Map<number, number> {
  const ordered = [...scores].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  return new Map(ordered.map(([id], index) => [id, (RRF_K + 1) / (RRF_K + 1 + index)]));
}

/**
 * Fuses keyword and vector candidates after normalising both lists the same
 * way, so neither list wins only because its raw scale is larger (raw cosines
 * of a real model sit in a narrow band, keyword coverage spans 0..1). A chunk
 * missing from one list gets 0 from it.
 */
export function fuseScores(
  keyword: Map<number, number>,
  vector: Map<number, number>,
  weights: { keyword: number; vector: number },
  method: FusionMethod,
): Map<number, number> {
  const normalise = method === 'rank' ? rankScores : minMax;
  const k = keyword.size > 0 ? normalise(keyword) : new Map<number, number>();
  const v = vector.size > 0 ? normalise(vector) : new Map<number, number>();
  const sum = weights.keyword + weights.vector || 1;
  const out = new Map<number, number>();
  for (const id of new Set([...k.keys(), ...v.keys()])) out.set(id, (weights.keyword * (k.get(id) ?? 0) + weights.vector * (v.get(id) ?? 0)) / sum);
  return out;
}
