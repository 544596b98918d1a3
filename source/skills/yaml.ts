import { FlowParser, setKey } from './yaml-flow.js';
import { YamlError, resolvePlainScalar } from './yaml-scalars.js';

export { YamlError };

interface Line {
  no: number;
  indent: number;
  /** Content after the indentation, trailing spaces removed; '' for blank and comment-only lines. */
  text: string;
  raw: string;
}

const BLOCK_HEADER = /^([|>])(?:([1-9])([-+])?|([-+])([1-9])?)?\s*(?:#.*)?$/;

function toLines(source: string, firstLine: number): Line[] {
  return source.split('\n').map((rawLine, index) => {
    const raw = rawLine.replace(/\r$/, '');
    const no = firstLine + index;
    const indent = raw.length - raw.replace(/^ +/, '').length;
    const rest = raw.slice(indent);
    if (rest.startsWith('\t') && rest.trim() !== '') throw new YamlError('a tab is used for indentation; YAML needs spaces', no);
    const trimmed = rest.trimEnd();
    return { no, indent, text: trimmed.startsWith('#') ? '' : trimmed, raw };
  });
}

/** Index of the `:` that ends a plain mapping key, or -1 when the text is not `key: …`. */
function keyColon(text: string): number {
  if (/^[[{"'#]/.test(text) || text.startsWith('- ') || text === '-') return -1;
  for (let at = 0; at < text.length; at += 1) {
    const char = text[at]!;
    if (char === '#' && at > 0 && /\s/.test(text[at - 1]!)) return -1;
    if (char === ':' && (at + 1 === text.length || text[at + 1] === ' ')) return at;
  }
  return -1;
}

const QUOTED_KEY = /^(?:"((?:[^"\\]|\\.)*)"|'((?:[^']|'')*)')\s*:(?:\s|$)/;

function splitKey(text: string, line: number): { key: string; rest: string } | undefined {
  const quoted = QUOTED_KEY.exec(text);
  if (quoted) {
    const key = quoted[1] !== undefined ? (new FlowParser(`"${quoted[1]}"`, line).parseDocument() as string) : quoted[2]!.replace(/''/g, "'");
    return { key, rest: text.slice(quoted[0].length).trim() };
  }
  if (text.startsWith('? ')) throw new YamlError('complex mapping keys ("? ") are not supported in frontmatter', line);
  const colon = keyColon(text);
  if (colon <= 0) return undefined;
  return { key: text.slice(0, colon).trim(), rest: text.slice(colon + 1).trim() };
}

function isSequenceItem(text: string): boolean {
  return text === '-' || text.startsWith('- ');
}

/**
 * A YAML block parser for SKILL.md frontmatter: block mappings and sequences,
 * flow collections (JSON included), plain, quoted and block (`|`, `>`)
 * scalars, with the YAML 1.2 core schema. Anchors, aliases, tags and complex
 * keys are refused with the line, never misread.
 */
class BlockParser {
  #at = 0;

  constructor(private readonly lines: Line[]) {}

  document(): unknown {
    const first = this.#nextContent();
    if (!first) return null;
    const value = this.#node(first.indent);
    const left = this.#nextContent();
    if (left) throw new YamlError(`"${left.text.slice(0, 40)}" does not fit the structure above it; check its indentation`, left.no);
    return value;
  }

  #nextContent(): Line | undefined {
    while (this.#at < this.lines.length && this.lines[this.#at]!.text === '') this.#at += 1;
    return this.lines[this.#at];
  }

  #node(indent: number): unknown {
    const line = this.#nextContent()!;
    if (isSequenceItem(line.text)) return this.#sequence(line.indent);
    if (splitKey(line.text, line.no)) return this.#mapping(line.indent);
    this.#at += 1;
    return this.#inline(line, line.text, indent - 1);
  }

  #mapping(indent: number): Record<string, unknown> {
    const map: Record<string, unknown> = {};
    for (let line = this.#nextContent(); line && line.indent >= indent; line = this.#nextContent()) {
      if (line.indent > indent) throw new YamlError(`"${line.text.slice(0, 40)}" is indented more than the keys around it`, line.no);
      const entry = splitKey(line.text, line.no);
      if (!entry) throw new YamlError(`expected "key: value", found "${line.text.slice(0, 40)}"`, line.no);
      if (Object.hasOwn(map, entry.key)) throw new YamlError(`the key "${entry.key}" appears twice`, line.no);
      this.#at += 1;
      setKey(map, entry.key, this.#value(line, entry.rest, indent, true));
    }
    return map;
  }

  #sequence(indent: number): unknown[] {
    const items: unknown[] = [];
    for (let line = this.#nextContent(); line && line.indent >= indent; line = this.#nextContent()) {
      if (line.indent > indent) throw new YamlError(`"${line.text.slice(0, 40)}" is indented more than the list items around it`, line.no);
      if (!isSequenceItem(line.text)) break;
      const gap = line.text.slice(1).length - line.text.slice(1).trimStart().length;
      const rest = line.text.slice(1 + gap);
      if (rest !== '' && !BLOCK_HEADER.test(rest) && (isSequenceItem(rest) || splitKey(rest, line.no))) {
        // `- key: value` opens a mapping whose keys line up with `key`.
        const nested = { ...line, indent: indent + 1 + gap, text: rest };
        this.lines[this.#at] = nested;
        items.push(this.#node(nested.indent));
        continue;
      }
      this.#at += 1;
      items.push(this.#value(line, rest, indent, false));
    }
    return items;
  }

  /** The value after `key:` or `-` on `line` (rest is what follows the indicator). */
  #value(line: Line, rest: string, indent: number, inMapping: boolean): unknown {
    if (rest === '') {
      const next = this.#nextContent();
      if (!next) return null;
      if (next.indent > indent) return this.#node(next.indent);
      if (inMapping && next.indent === indent && isSequenceItem(next.text)) return this.#sequence(indent);
      return null;
    }
    if (rest[0] === '|' || rest[0] === '>') return this.#blockScalar(line, rest, indent);
    return this.#inline(line, rest, indent);
  }

  /** A plain, quoted or flow value that may continue on lines indented past `indent`. */
  #inline(line: Line, first: string, indent: number): unknown {
    const parts = [first];
    for (let next = this.lines[this.#at]; next && next.text !== '' && next.indent > indent; next = this.lines[this.#at]) {
      parts.push(next.text);
      this.#at += 1;
    }
    const text = parts.join('\n');
    if (/^[[{"']/.test(text)) return new FlowParser(text, line.no).parseDocument();
    const plain = text.replace(/\s#.*$/gm, '').trim();
    if (/:(?:\s|$)/.test(plain)) {
      throw new YamlError(`the value "${plain.slice(0, 40)}" contains ": ", which YAML reads as a nested key; put the whole value in quotes`, line.no);
    }
    return resolvePlainScalar(plain.replace(/\s*\n\s*/g, ' '), line.no);
  }

  #blockScalar(line: Line, header: string, indent: number): string {
    const match = BLOCK_HEADER.exec(header);
    if (!match) throw new YamlError(`"${header}" is not a block scalar header (use |, |-, >, >- …)`, line.no);
    const folded = match[1] === '>';
    const chomp = match[3] ?? match[4] ?? '';
    const explicit = match[2] ?? match[5];
    const body: string[] = [];
    let contentIndent = explicit ? indent + Number(explicit) : -1;
    while (this.#at < this.lines.length) {
      const next = this.lines[this.#at]!;
      if (next.raw.trim() === '') {
        body.push('');
        this.#at += 1;
        continue;
      }
      const lead = next.raw.length - next.raw.trimStart().length;
      if (contentIndent < 0) contentIndent = lead;
      if (lead < contentIndent || lead <= indent) break;
      body.push(next.raw.slice(contentIndent));
      this.#at += 1;
    }
    let trailing = 0;
    while (body.length > 0 && body.at(-1) === '') {
      body.pop();
      trailing += 1;
    }
    const text = folded ? foldLines(body) : body.join('\n');
    if (chomp === '-') return text;
    if (chomp === '+') return text + '\n'.repeat(trailing + (body.length > 0 ? 1 : 0));
    return body.length > 0 ? `${text}\n` : '';
  }
}

/** `>` folding: single breaks between plain lines become spaces, blank lines and more-indented lines keep their breaks. */
function foldLines(lines: readonly string[]): string {
  const indented = (text: string) => text.startsWith(' ') || text.startsWith('\t');
  let out = lines[0] ?? '';
  let lastContent = out;
  for (let at = 1; at < lines.length; at += 1) {
    const line = lines[at]!;
    const previous = lines[at - 1]!;
    if (line === '') {
      out += '\n';
      continue;
    }
    if (previous === '') out += indented(line) || indented(lastContent) ? `\n${line}` : line;
    else out += indented(line) || indented(previous) ? `\n${line}` : ` ${line}`;
    lastContent = line;
  }
  return out;
}

/** Parses YAML text; `firstLine` numbers the lines in errors as they are in the enclosing file. */
export function parseYaml(source: string, firstLine = 1): unknown {
  return new BlockParser(toLines(source, firstLine)).document();
}
