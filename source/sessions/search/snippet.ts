/** The words of a query, lowercased, longest first so overlapping marks prefer the longer word. */
export function queryTerms(query: string): string[] {
  return [
    ...new Set(
      query
        .toLowerCase()
        .split(/\s+/)
        .filter((w) => w !== ''),
    ),
  ].sort((a, b) => b.length - a.length);
}

const SNIPPET_CHARS = 160;

/**
 * One line of the message around its first match, with the [start, end)
 * ranges of every term inside it. Whitespace runs become one space first, so
 * the ranges index the snippet exactly as a client will draw it.
 */
export function makeSnippet(text: string, terms: readonly string[]): { snippet: string; highlights: Array<[number, number]> } {
  const flat = text.replace(/\s+/g, ' ').trim();
  const lower = flat.toLowerCase();
  const first = Math.min(...terms.map((t) => lower.indexOf(t)).filter((i) => i >= 0), Number.MAX_SAFE_INTEGER);
  const at = first === Number.MAX_SAFE_INTEGER ? 0 : first;
  const start = at < SNIPPET_CHARS / 3 ? 0 : at - Math.floor(SNIPPET_CHARS / 3);
  const end = Math.min(flat.length, start + SNIPPET_CHARS);
  const prefix = start > 0 ? '…' : '';
  const suffix = end < flat.length ? '…' : '';
  const snippet = prefix + flat.slice(start, end) + suffix;
  const lowerSnippet = snippet.toLowerCase();
  const marks: Array<[number, number]> = [];
  for (const term of terms) {
    for (let i = lowerSnippet.indexOf(term); i !== -1; i = lowerSnippet.indexOf(term, i + term.length)) {
      if (!marks.some(([a, b]) => i < b && i + term.length > a)) marks.push([i, i + term.length]);
    }
  }
  marks.sort((a, b) => a[0] - b[0]);
  return { snippet, highlights: marks };
}
