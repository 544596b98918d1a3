import { cjkRunGlobal } from './cjk.js';
import { cjkRecencyWords, cjkStopWords, englishRecencyWords, englishStopWords } from './stop-words.js';
import { keywordTokens } from './text-tokens.js';

/** One thing a note can match; coverage of a query is counted in terms. */
export interface QueryTerm {
  /** As shown in `explain`: the word, identifier or CJK bigram. */
  label: string;
  /** FTS5 expression matching it. */
  match: string;
  kind: 'word' | 'identifier' | 'cjk';
  /** Terms of one CJK run share a group: if none of its bigrams occurs anywhere, the run still counts as one missing term. */
  group: number;
}

export interface ParsedQuery {
  terms: QueryTerm[];
  /** Whole CJK runs as phrases: they raise BM25 for notes containing the run verbatim, but are not required. */
  boosts: string[];
  /** The question asks for the current state ("now", "latest", 现在, 最近 …). */
  recency: boolean;
  /** The query had words, but every one was a common word. */
  onlyStopWords: boolean;
}

const cjkSplit = new RegExp([...cjkRecencyWords, ...cjkStopWords].sort((a, b) => b.length - a.length).join('|'), 'gu');
const cjkRecency = new RegExp(cjkRecencyWords.join('|'), 'u');
// ' or ’, escaped as the build needs (scripts/build.mjs).
const possessive = /['\u{2019}]s(?=$|[^\p{L}\p{N}])/giu;
// Identifier-ish: joined by punctuation (db-01.prod, 192.168.1.20, /etc/x, CVE-2024-1, #1234, v2.1) or mixing letters and digits.
const identifierShape = /[\p{L}\p{N}][._\-/:@+][\p{L}\p{N}]|^[#/~@]|\p{L}.*\p{N}|\p{N}.*\p{L}/u;
const edgePunctuation = /^[^\p{L}\p{N}#/~@]+|[^\p{L}\p{N}/]+$/gu;

const quote = (tokens: string[]) => `"${tokens.join(' ')}"`;

function bigrams(chars: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  return out;
}

/**
 * Turns a question into keyword terms. Whitespace words are split further
 * into runs of one script, so `restaurant？她` keeps its English word;
 * identifiers stay one exact phrase; other Latin words are single terms
 * without possessives or stop words; CJK runs become their bigrams, each a
 * term of its own, so a note sharing some words with a question is found.
 */
export function parseQuery(query: string): ParsedQuery {
  const terms = new Map<string, QueryTerm>();
  const boosts = new Set<string>();
  const lonelyChars = new Set<string>();
  let recency = false;
  let sawWord = false;
  let group = 0;
  const add = (term: Omit<QueryTerm, 'group'>, inGroup: number) => {
    if (!terms.has(term.match)) terms.set(term.match, { ...term, group: inGroup });
  };

  const latin = (segment: string) => {
    const cleaned = segment.replace(possessive, '').replace(edgePunctuation, '');
    const tokens = keywordTokens(cleaned);
    if (tokens.length === 0) return;
    sawWord = true;
    if (tokens.length > 1 && identifierShape.test(cleaned)) {
      add({ label: cleaned.toLowerCase(), match: quote(tokens), kind: 'identifier' }, group++);
      return;
    }
    for (const token of tokens) {
      if (englishRecencyWords.has(token)) {
        recency = true;
        continue;
      }
      if (englishStopWords.has(token)) continue;
      add({ label: token, match: quote([token]), kind: identifierShape.test(token) ? 'identifier' : 'word' }, group++);
    }
  };

  const cjk = (run: string) => {
    sawWord = true;
    if (cjkRecency.test(run)) recency = true;
    for (const piece of run.split(cjkSplit)) {
      const chars = Array.from(piece);
      if (chars.length === 0) continue;
      if (chars.length === 1) {
        lonelyChars.add(piece);
        continue;
      }
      const runGroup = group++;
      for (const pair of bigrams(chars)) add({ label: pair, match: quote([pair]), kind: 'cjk' }, runGroup);
      if (chars.length > 2) boosts.add(quote(bigrams(chars)));
    }
  };

  for (const word of query.normalize('NFKC').split(/\s+/)) {
    let last = 0;
    for (const match of word.matchAll(cjkRunGlobal)) {
      if (match.index > last) latin(word.slice(last, match.index));
      cjk(match[0]);
      last = match.index + match[0].length;
    }
    if (last < word.length) latin(word.slice(last));
  }
  // A lone character is only worth a search when nothing better was asked; it matches the bigrams it starts.
  if (terms.size === 0) for (const char of lonelyChars) add({ label: char, match: `"${char}"*`, kind: 'cjk' }, group++);
  return { terms: [...terms.values()], boosts: [...boosts], recency, onlyStopWords: sawWord && terms.size === 0 };
}

/** The FTS5 expression for candidates: every term and boost, OR-ed. */
export function candidateExpression(parsed: ParsedQuery): string | undefined {
  const parts = [...parsed.terms.map((term) => term.match), ...parsed.boosts];
  return parts.length === 0 ? undefined : parts.join(' OR ');
}
