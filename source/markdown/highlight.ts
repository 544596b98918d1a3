import { createRequire } from 'node:module';
import { decodeEntities } from './entities.js';
import type { TermColor, TermLine, TermSpan } from './terminal.js';

interface HljsResult {
  value: string;
}
interface Hljs {
  registerLanguage(name: string, language: unknown): void;
  getLanguage(name: string): unknown;
  highlight(code: string, options: { language: string; ignoreIllegals: boolean }): HljsResult;
}

// Set by scripts/build.mjs: the bundle carries highlight.js (its common
// languages) as a CommonJS file of its own, dist/chunks/highlight.cjs,
// required with the first code block that names a language; from source/ it
// is the package.
declare const CLAW_BUNDLED_HIGHLIGHT: string | undefined;

let hljs: Hljs | null | undefined;

/**
 * highlight.js with the ~35 languages models write most (bash, c, c#, c++,
 * css, diff, go, java, js, json, kotlin, markdown, php, python, ruby, rust,
 * shell, sql, swift, ts, xml, yaml …), loaded on first use, never at start.
 * Null where it cannot load: code is then shown plain.
 */
function highlighter(): Hljs | null {
  if (hljs === undefined) {
    try {
      const load = createRequire(import.meta.url);
      hljs = load(typeof CLAW_BUNDLED_HIGHLIGHT === 'string' ? CLAW_BUNDLED_HIGHLIGHT : 'highlight.js/lib/common') as Hljs;
    } catch {
      hljs = null;
    }
  }
  return hljs;
}

const colors: Readonly<Record<string, TermColor>> = {
  keyword: 'magenta',
  built_in: 'cyan',
  'selector-tag': 'magenta',
  string: 'green',
  regexp: 'green',
  addition: 'green',
  number: 'yellow',
  literal: 'yellow',
  symbol: 'yellow',
  comment: 'gray',
  quote: 'gray',
  meta: 'gray',
  title: 'blue',
  section: 'blue',
  name: 'blue',
  tag: 'blue',
  type: 'cyan',
  attr: 'cyan',
  attribute: 'cyan',
  deletion: 'red',
};

function styleOf(classes: readonly string[]): Omit<TermSpan, 'text'> {
  for (let i = classes.length - 1; i >= 0; i -= 1) {
    const name = (classes[i] ?? '').replace(/^hljs-/, '').split(/[\s.]/)[0] ?? '';
    const color = colors[name];
    if (color) return name === 'comment' || name === 'quote' ? { color, dim: true } : { color };
  }
  return {};
}

/** highlight.js HTML (spans with hljs-* classes, escaped text) as styled lines. */
function linesOf(html: string): TermLine[] {
  const lines: TermLine[] = [[]];
  const stack: string[] = [];
  for (const match of html.matchAll(/<span class="([^"]+)">|<\/span>|([^<]+)/g)) {
    if (match[1] !== undefined) stack.push(match[1]);
    else if (match[2] === undefined) stack.pop();
    else {
      const style = styleOf(stack);
      decodeEntities(match[2])
        .split('\n')
        .forEach((piece, i) => {
          if (i > 0) lines.push([]);
          if (piece !== '') lines.at(-1)!.push({ ...style, text: piece });
        });
    }
  }
  return lines;
}

/** Highlighted blocks by language and code: a streamed block is highlighted once, and again only when the code changes. */
const highlighted = new Map<string, TermLine[]>();
const MAX_CACHED = 512;

/** Code as lines of styled spans: highlighted when the language is known, plain otherwise (no guessing: it is slow and often wrong). */
export function highlightCode(code: string, lang: string): TermLine[] {
  const key = `${lang}\u0000${code}`;
  const hit = highlighted.get(key);
  if (hit) return hit;
  const lines = highlightUncached(code, lang);
  if (highlighted.size >= MAX_CACHED) highlighted.delete(highlighted.keys().next().value as string);
  highlighted.set(key, lines);
  return lines;
}

function highlightUncached(code: string, lang: string): TermLine[] {
  const plain = (): TermLine[] => code.split('\n').map((line) => (line === '' ? [] : [{ text: line }]));
  if (!lang) return plain();
  const engine = highlighter();
  if (!engine?.getLanguage(lang.toLowerCase())) return plain();
  try {
    return linesOf(engine.highlight(code, { language: lang.toLowerCase(), ignoreIllegals: true }).value);
  } catch {
    return plain();
  }
}
