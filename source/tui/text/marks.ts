import { stringWidth, truncate } from './width.js';

/** [start, end) ranges of each case-insensitive occurrence of the query's words in text. */
export function matchRanges(text: string, query: string): Array<[number, number]> {
  const lower = text.toLowerCase();
  const ranges: Array<[number, number]> = [];
  for (const word of query
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '')) {
    for (let at = lower.indexOf(word); at !== -1; at = lower.indexOf(word, at + word.length)) ranges.push([at, at + word.length]);
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const range of ranges) {
    const last = merged.at(-1);
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([range[0], range[1]]);
  }
  return merged;
}

/**
 * Cuts a one-line snippet to `width` cells around its first mark, keeping the
 * marks that stay inside, shifted to the cut text.
 */
export function clipMarked(text: string, ranges: ReadonlyArray<readonly [number, number]>, width: number): { text: string; ranges: Array<[number, number]> } {
  const first = ranges[0]?.[0] ?? 0;
  const from = stringWidth(text.slice(0, first)) < width / 2 ? 0 : Math.max(0, first - Math.floor(width / 3));
  const prefix = from > 0 ? '…' : '';
  const cut = truncate(prefix + text.slice(from), width);
  const shift = from - prefix.length;
  const limit = cut.endsWith('…') && cut.length < prefix.length + text.length - from ? cut.length - 1 : cut.length;
  return { text: cut, ranges: ranges.map(([a, b]): [number, number] => [a - shift, b - shift]).filter(([a, b]) => a >= prefix.length && b <= limit) };
}
