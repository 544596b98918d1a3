import { cjkRunGlobal } from './cjk.js';

/**
 * Keyword tokenisation shared by indexing and querying. FTS5's unicode61
 * tokenizer does not split CJK runs, so those are rewritten as overlapping
 * bigrams (the classic CJK analyzer approach): a two-character word is found,
 * which a trigram index cannot do, and English keeps word-level BM25.
 */
const wordRun = /[\p{L}\p{N}]+/gu;

export const KEYWORD_TOKENIZER = 'porter unicode61 + CJK bigrams';

function bigrams(run: string): string[] {
  const chars = Array.from(run);
  if (chars.length < 2) return chars;
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  return out;
}

/** Text as stored in the FTS table: CJK runs become space-separated bigrams. */
export function segmentForIndex(text: string): string {
  return text.replace(cjkRunGlobal, (run) => ` ${bigrams(run).join(' ')} `);
}

/** Lower-cased word tokens, with CJK runs as bigrams; used for queries and MMR similarity. */
export function keywordTokens(text: string): string[] {
  const out: string[] = [];
  for (const match of segmentForIndex(text).matchAll(wordRun)) out.push(match[0].toLowerCase());
  return out;
}
