/**
 * The front matter of a HOOK.md: the YAML subset hook manifests use (maps,
 * block and `[flow]` lists, plain and quoted scalars, numbers, booleans).
 * Anything else is refused with its line number rather than guessed at.
 */
export type FrontValue = string | number | boolean | null | FrontValue[] | { [key: string]: FrontValue };

export class FrontmatterError extends Error {}

interface Line {
  indent: number;
  text: string;
  number: number;
}

function scalar(raw: string, line: number): FrontValue {
  const text = raw.trim();
  if (text === '' || text === '~' || text === 'null') return null;
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (text.startsWith('"')) {
    try {
      return JSON.parse(text) as string;
    } catch {
      throw new FrontmatterError(`line ${line}: unterminated or malformed "double-quoted" string`);
    }
  }
  if (text.startsWith("'")) {
    if (!text.endsWith("'") || text.length < 2) throw new FrontmatterError(`line ${line}: unterminated 'single-quoted' string`);
    return text.slice(1, -1).replace(/''/g, "'");
  }
  if (text.startsWith('[')) {
    if (!text.endsWith(']')) throw new FrontmatterError(`line ${line}: a [flow list] must close on the same line`);
    const inner = text.slice(1, -1).trim();
    return inner === '' ? [] : splitFlow(inner).map((item) => scalar(item, line));
  }
  if (text.startsWith('{') || text.startsWith('|') || text.startsWith('>') || text.startsWith('&') || text.startsWith('*')) {
    throw new FrontmatterError(`line ${line}: "${text.slice(0, 20)}" uses YAML this parser does not read; write maps as indented "key: value" lines and text on one line`);
  }
  return text.replace(/\s+#.*$/, '');
}

function splitFlow(inner: string): string[] {
  const items: string[] = [];
  let current = '';
  let quote: string | undefined;
  for (const ch of inner) {
    if (quote) {
      if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === ',') {
      items.push(current);
      current = '';
      continue;
    }
    current += ch;
  }
  items.push(current);
  return items;
}

function parseBlock(lines: Line[], start: number, indent: number): { value: FrontValue; next: number } {
  const first = lines[start];
  if (!first) return { value: null, next: start };
  if (first.text.startsWith('- ') || first.text === '-') {
    const list: FrontValue[] = [];
    let i = start;
    while (i < lines.length && lines[i]!.indent === indent && (lines[i]!.text.startsWith('- ') || lines[i]!.text === '-')) {
      list.push(scalar(lines[i]!.text.slice(1), lines[i]!.number));
      i += 1;
    }
    return { value: list, next: i };
  }
  const map: { [key: string]: FrontValue } = {};
  let i = start;
  while (i < lines.length && lines[i]!.indent === indent) {
    const line = lines[i]!;
    const match = /^([A-Za-z0-9_.-]+)\s*:(?:\s+(.*)|\s*)$/.exec(line.text);
    if (!match) throw new FrontmatterError(`line ${line.number}: expected "key: value", got "${line.text}"`);
    const key = match[1]!;
    const rest = match[2]?.trim() ?? '';
    i += 1;
    if (rest !== '' && !rest.startsWith('#')) {
      map[key] = scalar(rest, line.number);
      continue;
    }
    const child = lines[i];
    if (child && child.indent > indent) {
      const parsed = parseBlock(lines, i, child.indent);
      map[key] = parsed.value;
      i = parsed.next;
    } else if (child && child.indent === indent && child.text.startsWith('- ')) {
      const parsed = parseBlock(lines, i, indent);
      map[key] = parsed.value;
      i = parsed.next;
    } else {
      map[key] = null;
    }
  }
  if (i < lines.length && lines[i]!.indent > indent) throw new FrontmatterError(`line ${lines[i]!.number}: indented more than the key above it`);
  return { value: map, next: i };
}

/** Splits a markdown file into its front matter (parsed) and body. */
export function parseFrontmatter(text: string): { data: { [key: string]: FrontValue }; body: string } {
  const normalised = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  if (!normalised.startsWith('---\n')) throw new FrontmatterError('the file must start with a "---" line opening its front matter');
  const end = normalised.indexOf('\n---', 4);
  if (end < 0) throw new FrontmatterError('the front matter is never closed: add a "---" line after it');
  const raw = normalised.slice(4, end).split('\n');
  const lines: Line[] = [];
  raw.forEach((content, index) => {
    if (content.trim() === '' || content.trim().startsWith('#')) return;
    if (/^\t/.test(content)) throw new FrontmatterError(`line ${index + 2}: indent with spaces, not tabs`);
    lines.push({ indent: content.length - content.trimStart().length, text: content.trim(), number: index + 2 });
  });
  const parsed: { value: FrontValue; next: number } = lines.length === 0 ? { value: {}, next: 0 } : parseBlock(lines, 0, lines[0]!.indent);
  if (parsed.next < lines.length) throw new FrontmatterError(`line ${lines[parsed.next]!.number}: indented less than the first key`);
  const value = parsed.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new FrontmatterError('the front matter must be "key: value" lines');
  const bodyStart = normalised.indexOf('\n', end + 4);
  return { data: value as { [key: string]: FrontValue }, body: bodyStart < 0 ? '' : normalised.slice(bodyStart + 1) };
}
