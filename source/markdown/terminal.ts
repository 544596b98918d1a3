import { highlightCode } from './highlight.js';
import { inlineText, parseMarkdown } from './parse.js';
import type { Align, Block, Inline } from './tree.js';

export type TermColor = 'cyan' | 'green' | 'yellow' | 'red' | 'gray' | 'magenta' | 'blue';

/** A run of text in one style. */
export interface TermSpan {
  text: string;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  strike?: boolean;
  dim?: boolean;
  color?: TermColor;
}

export type TermLine = TermSpan[];

/**
 * How the terminal measures text: the TUI passes its own, so wrapping agrees
 * with its cursor and frame (CJK and emoji take two cells).
 */
export interface Measure {
  width(text: string): number;
  graphemes(text: string): Iterable<string>;
}

type Style = Omit<TermSpan, 'text'>;

const spanWidth = (line: readonly TermSpan[], measure: Measure): number => line.reduce((sum, span) => sum + measure.width(span.text), 0);

function styledInlines(nodes: readonly Inline[], style: Style, out: TermSpan[]): void {
  for (const node of nodes) {
    switch (node.type) {
      case 'text':
        out.push({ ...style, text: node.text });
        break;
      case 'break':
        out.push({ ...style, text: '\n' });
        break;
      case 'code':
        out.push({ ...style, text: node.text, color: 'yellow' });
        break;
      case 'strong':
        styledInlines(node.children, { ...style, bold: true }, out);
        break;
      case 'em':
        styledInlines(node.children, { ...style, italic: true }, out);
        break;
      case 'del':
        styledInlines(node.children, { ...style, strike: true }, out);
        break;
      case 'spoiler':
        styledInlines(node.children, { ...style, dim: true }, out);
        break;
      case 'link': {
        const label = inlineText(node.children);
        styledInlines(node.children, { ...style, underline: true, color: 'blue' }, out);
        // The target stays readable and copyable: shown unless the label is the URL itself.
        if (label !== node.href && `mailto:${label}` !== node.href) out.push({ ...style, text: ` (${node.href})`, dim: true });
        break;
      }
      case 'image':
        out.push({ ...style, text: `[image: ${node.alt || 'no description'}]`, dim: true }, { ...style, text: ` (${node.src})`, dim: true });
        break;
    }
  }
}

/**
 * Spans wrapped to `width` cells: breaks at spaces, cuts a longer word
 * between graphemes, keeps explicit newlines. `verbatim` (code) keeps every
 * space, leading ones included.
 */
export function wrapSpans(spans: readonly TermSpan[], width: number, measure: Measure, verbatim = false): TermLine[] {
  const limit = Math.max(1, width);
  const lines: TermLine[] = [[]];
  let used = 0;
  const newLine = (): void => {
    const tail = lines.at(-1)!.at(-1);
    // A space may hang past the edge while the line fills; it goes when the line breaks (in code too, or the frame overflows).
    if (tail && (!verbatim || used > limit)) tail.text = tail.text.trimEnd();
    lines.push([]);
    used = 0;
    from = undefined;
  };
  // Pieces of one span on one line join into one run (fewer Text nodes to draw).
  let from: TermSpan | undefined;
  const put = (span: TermSpan, text: string, cells: number): void => {
    const line = lines.at(-1)!;
    const tail = line.at(-1);
    if (tail && from === span) tail.text += text;
    else line.push({ ...span, text });
    from = span;
    used += cells;
  };
  for (const span of spans) {
    // Most spans fit where they are: one measure, no split.
    if (!span.text.includes('\n') && !span.text.includes('\t') && (used > 0 || verbatim || !span.text.startsWith(' '))) {
      const cells = measure.width(span.text);
      if (cells <= limit - used) {
        put(span, span.text, cells);
        continue;
      }
    }
    const parts = span.text.replace(/\t/g, '  ').split('\n');
    parts.forEach((part, index) => {
      if (index > 0) newLine();
      for (const word of part.split(/(?<= )/)) {
        if (word === '') continue;
        const cells = measure.width(word.trimEnd());
        if (used > 0 && used + cells > limit) newLine();
        if (used === 0 && word.trim() === '' && !verbatim) continue;
        if (cells <= limit - used) {
          put(span, word, measure.width(word));
          continue;
        }
        for (const grapheme of measure.graphemes(word)) {
          const w = measure.width(grapheme);
          if (used + w > limit && used > 0) newLine();
          if (used === 0 && grapheme === ' ' && !verbatim) continue;
          put(span, grapheme, w);
        }
      }
    });
  }
  const tail = lines.at(-1)!.at(-1);
  if (tail && (!verbatim || used > limit)) tail.text = tail.text.trimEnd();
  return lines.map((line) => line.filter((span) => span.text !== ''));
}

const prefixed = (prefix: TermSpan, rest: TermSpan, lines: readonly TermLine[]): TermLine[] => lines.map((line, i) => [i === 0 ? prefix : rest, ...line]);

function codeLines(block: Extract<Block, { type: 'code' }>, width: number, measure: Measure): TermLine[] {
  const inner = Math.max(1, width - 2);
  const label = block.lang ? ` ${block.lang} ` : '';
  const top: TermLine = [{ text: `╭─${label}${'─'.repeat(Math.max(0, inner - measure.width(label) - 1))}`, color: 'gray', dim: true }];
  const bar: TermSpan = { text: '│ ', color: 'gray', dim: true };
  const body = highlightCode(block.text, block.lang).flatMap((line) => (line.length === 0 ? [[]] : wrapSpans(line, inner, measure, true)));
  const bottom: TermLine = [{ text: `╰${'─'.repeat(Math.max(0, inner))}`, color: 'gray', dim: true }];
  return [top, ...body.map((line) => [bar, ...line]), bottom];
}

function pad(line: TermLine, cells: number, align: Align, measure: Measure): TermLine {
  const room = Math.max(0, cells - spanWidth(line, measure));
  if (room === 0) return line;
  if (align === 'right') return [{ text: ' '.repeat(room) }, ...line];
  if (align === 'center') return [{ text: ' '.repeat(Math.floor(room / 2)) }, ...line, { text: ' '.repeat(room - Math.floor(room / 2)) }];
  return [...line, { text: ' '.repeat(room) }];
}

/** Column widths that fit `width`: natural widths, the widest shrunk first, none below 6 cells; undefined when even that does not fit. */
function columnWidths(natural: readonly number[], width: number): number[] | undefined {
  const borders = 3 * (natural.length - 1);
  const widths = [...natural];
  const total = (): number => widths.reduce((sum, w) => sum + w, 0) + borders;
  while (total() > width) {
    const widest = widths.indexOf(Math.max(...widths));
    if ((widths[widest] ?? 0) <= 6) return undefined;
    widths[widest] = (widths[widest] ?? 0) - 1;
  }
  return widths;
}

function tableLines(block: Extract<Block, { type: 'table' }>, width: number, measure: Measure): TermLine[] {
  const cellSpans = (cell: readonly Inline[], header: boolean): TermSpan[] => {
    const out: TermSpan[] = [];
    styledInlines(cell, header ? { bold: true } : {}, out);
    return out;
  };
  const header = block.header.map((cell) => cellSpans(cell, true));
  const rows = block.rows.map((row) => block.header.map((_, i) => cellSpans(row[i] ?? [], false)));
  const natural = header.map((cell, i) => Math.max(spanWidth(cell, measure), ...rows.map((row) => spanWidth(row[i] ?? [], measure)), 1));
  const widths = columnWidths(natural, width);
  if (!widths) {
    // Too narrow for columns: one record per row, "header: value" per line.
    const records = rows.map((row) =>
      row.flatMap((cell, i) => wrapSpans([...(header[i] ?? []).map((s) => ({ ...s, text: s.text })), { text: ': ', bold: true }, ...cell], width, measure)),
    );
    return records.flatMap((record, i) => (i === 0 ? record : [[], ...record]));
  }
  const sep: TermSpan = { text: ' │ ', color: 'gray', dim: true };
  const renderRow = (cells: readonly TermSpan[][]): TermLine[] => {
    const wrapped = cells.map((cell, i) => wrapSpans(cell, widths[i] ?? 1, measure));
    const height = Math.max(...wrapped.map((lines) => lines.length));
    return Array.from({ length: height }, (_, row) =>
      wrapped.flatMap((lines, i) => [...(i > 0 ? [sep] : []), ...pad(lines[row] ?? [], widths[i] ?? 1, block.align[i] ?? null, measure)]),
    );
  };
  const rule: TermLine = [{ text: widths.map((w) => '─'.repeat(w)).join('─┼─'), color: 'gray', dim: true }];
  return [...renderRow(header), rule, ...rows.flatMap(renderRow)];
}

function blockLines(block: Block, width: number, measure: Measure): TermLine[] {
  switch (block.type) {
    case 'paragraph': {
      const spans: TermSpan[] = [];
      styledInlines(block.children, {}, spans);
      return wrapSpans(spans, width, measure);
    }
    case 'heading': {
      const spans: TermSpan[] = [];
      styledInlines(
        block.children,
        { bold: true, ...(block.depth <= 2 ? { color: 'cyan' as const } : {}), ...(block.depth === 1 ? { underline: true } : {}) },
        spans,
      );
      return wrapSpans(spans, width, measure);
    }
    case 'code':
      return codeLines(block, width, measure);
    case 'quote': {
      const bar: TermSpan = { text: '▎ ', color: 'gray', dim: true };
      return blocksLines(block.children, width - 2, measure).map((line) => [bar, ...line.map((span) => ({ ...span, italic: true }))]);
    }
    case 'list':
      return block.items.flatMap((item, i) => {
        const mark = item.checked === undefined ? (block.ordered ? `${block.start + i}. ` : '• ') : item.checked ? '☑ ' : '☐ ';
        const indent = ' '.repeat(measure.width(mark));
        const body = blocksLines(item.children, width - indent.length, measure, false);
        return prefixed({ text: mark, color: 'cyan' }, { text: indent }, body.length > 0 ? body : [[]]);
      });
    case 'table':
      return tableLines(block, width, measure);
    case 'rule':
      return [[{ text: '─'.repeat(Math.max(1, width)), color: 'gray', dim: true }]];
    case 'html':
      return wrapSpans([{ text: block.text, dim: true }], width, measure);
  }
}

function blocksLines(blocks: readonly Block[], width: number, measure: Measure, spaced = true): TermLine[] {
  const out: TermLine[] = [];
  blocks.forEach((block, i) => {
    // Blocks are set apart by a blank line, except the paragraphs and sub-lists of a tight list item.
    if (i > 0 && (spaced || block.type !== 'list')) out.push([]);
    out.push(...blockLines(block, Math.max(1, width), measure));
  });
  return out;
}

/**
 * Model Markdown as terminal lines of styled spans at `width` cells:
 * headings, emphasis, inline code, nested lists with hanging indent, quotes,
 * tables fitted to the width (cells wrap; too narrow, one record per row),
 * code framed with its language and highlighted, links with their target,
 * rules. Never wider than `width`.
 */
export function renderTerminal(source: string, width: number, measure: Measure): TermLine[] {
  return blocksLines(parseMarkdown(source), width, measure);
}
