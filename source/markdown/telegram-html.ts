import { parseMarkdown, inlineText, wellFormed } from './parse.js';
import type { Block, Inline } from './tree.js';

/** Telegram's limit on a message's text, in UTF-16 units after its HTML is parsed. */
export const TELEGRAM_TEXT_LIMIT = 4096;

interface Tag {
  open: string;
  close: string;
}

/**
 * A run of text with the tags around it. A message is a list of atoms; its
 * HTML opens and closes tags between atoms, so every message is well nested
 * on its own, wherever the cut falls.
 */
interface Atom {
  text: string;
  tags: readonly Tag[];
  /** The atom starts a block or a line: a good place to begin a new message. */
  boundary?: boolean;
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const tag = (name: string, attributes = ''): Tag => ({ open: `<${name}${attributes}>`, close: `</${name}>` });
const SAFE_LINK = /^(https?:|mailto:|tg:)/i;

function inlineAtoms(nodes: readonly Inline[], tags: readonly Tag[], out: Atom[]): void {
  for (const node of nodes) {
    switch (node.type) {
      case 'text':
        out.push({ text: node.text, tags });
        break;
      case 'break':
        out.push({ text: '\n', tags });
        break;
      case 'code':
        out.push({ text: node.text, tags: [...tags, tag('code')] });
        break;
      case 'strong':
        inlineAtoms(node.children, [...tags, tag('b')], out);
        break;
      case 'em':
        inlineAtoms(node.children, [...tags, tag('i')], out);
        break;
      case 'del':
        inlineAtoms(node.children, [...tags, tag('s')], out);
        break;
      case 'spoiler':
        inlineAtoms(node.children, [...tags, tag('tg-spoiler')], out);
        break;
      case 'link':
        // A link inside a link is not allowed; a scheme Telegram would refuse (javascript:) is shown as typed.
        if (!SAFE_LINK.test(node.href) || tags.some((t) => t.close === '</a>')) out.push({ text: node.raw, tags });
        else inlineAtoms(node.children, [...tags, tag('a', ` href="${escapeHtml(node.href)}"`)], out);
        break;
      case 'image':
        if (SAFE_LINK.test(node.src)) out.push({ text: node.alt || node.src, tags: [...tags, tag('a', ` href="${escapeHtml(node.src)}"`)] });
        else out.push({ text: node.alt, tags });
        break;
    }
  }
}

/** A table as monospace columns, or one record per row when that would be too wide to read on a phone. */
function tableText(block: Extract<Block, { type: 'table' }>): { text: string; monospace: boolean } {
  const header = block.header.map(inlineText);
  const rows = block.rows.map((row) => row.map(inlineText));
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => (row[i] ?? '').length)));
  if (widths.reduce((sum, w) => sum + w + 3, 0) <= 60) {
    const line = (cells: string[]): string =>
      cells
        .map((cell, i) => (block.align[i] === 'right' ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
        .join(' │ ')
        .trimEnd();
    return { text: [line(header), widths.map((w) => '─'.repeat(w)).join('─┼─'), ...rows.map(line)].join('\n'), monospace: true };
  }
  return { text: rows.map((row) => row.map((cell, i) => `${header[i] ?? ''}: ${cell}`).join('\n')).join('\n\n'), monospace: false };
}

function blockAtoms(block: Block, tags: readonly Tag[], indent: string, out: Atom[]): void {
  const start = out.length;
  switch (block.type) {
    case 'paragraph':
      inlineAtoms(block.children, tags, out);
      break;
    case 'heading':
      inlineAtoms(block.children, [...tags, tag('b')], out);
      break;
    case 'code': {
      if (block.text.trim() === '') break;
      const lang = block.lang.replace(/[^\w+#.-]/g, '');
      // Telegram takes no entity around a code block, so a quote is closed for it.
      const pre: Tag = lang ? { open: `<pre><code class="language-${lang}">`, close: '</code></pre>' } : tag('pre');
      const lines = block.text.split('\n');
      lines.forEach((line, i) => {
        out.push({ text: i < lines.length - 1 ? `${line}\n` : line, tags: [pre], boundary: true });
      });
      break;
    }
    case 'quote': {
      const inQuote = tags.some((t) => t.close === '</blockquote>');
      const quoted = inQuote ? tags : [...tags, tag('blockquote')];
      block.children.forEach((child, i) => {
        if (i > 0) out.push({ text: '\n', tags: quoted });
        blockAtoms(child, quoted, indent, out);
      });
      break;
    }
    case 'list':
      block.items.forEach((item, i) => {
        if (i > 0) out.push({ text: '\n', tags, boundary: true });
        const mark = item.checked === undefined ? (block.ordered ? `${block.start + i}.` : '•') : item.checked ? '☑' : '☐';
        out.push({ text: `${indent}${mark} `, tags, boundary: true });
        item.children.forEach((child, j) => {
          // A nested list indents its own marks.
          if (j > 0) out.push({ text: child.type === 'list' ? '\n' : `\n${indent}   `, tags });
          blockAtoms(child, tags, `${indent}   `, out);
        });
      });
      break;
    case 'table': {
      const { text, monospace } = tableText(block);
      const lineTags = monospace ? [tag('pre')] : tags;
      for (const line of text.split('\n')) out.push({ text: `${line}\n`, tags: lineTags, boundary: true });
      const last = out.at(-1);
      if (last) last.text = last.text.replace(/\n$/, '');
      break;
    }
    case 'rule':
      out.push({ text: '──────────', tags });
      break;
    case 'html':
      out.push({ text: block.text, tags });
      break;
  }
  const first = out[start];
  if (first) first.boundary = true;
}

/** Where to cut `text` within `room` UTF-16 units: after a line, a sentence, a space, else between graphemes; 0 when nothing fits. */
export function cutPoint(text: string, room: number): number {
  if (text.length <= room) return text.length;
  const window = text.slice(0, room);
  const line = window.lastIndexOf('\n');
  if (line >= room / 2) return line + 1;
  let sentence = -1;
  for (const match of window.matchAll(/[.!?\u3002\uff01\uff1f](?:\s|$)|[\u3002\uff01\uff1f]/g)) sentence = match.index + match[0].length;
  if (sentence >= room / 2) return sentence;
  const space = Math.max(window.lastIndexOf(' '), window.lastIndexOf('\t'));
  if (space >= room / 2) return space + 1;
  // Never inside a surrogate pair or a grapheme cluster (an emoji with its modifiers).
  let at = 0;
  for (const { index, segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)) {
    if (index + segment.length > room) break;
    at = index + segment.length;
  }
  return at;
}

function serialize(atoms: readonly Atom[]): string {
  let html = '';
  let open: readonly Tag[] = [];
  for (const atom of atoms) {
    let shared = 0;
    while (shared < open.length && shared < atom.tags.length && open[shared] === atom.tags[shared]) shared += 1;
    for (let i = open.length - 1; i >= shared; i -= 1) html += open[i]?.close ?? '';
    for (let i = shared; i < atom.tags.length; i += 1) html += atom.tags[i]?.open ?? '';
    html += escapeHtml(atom.text);
    open = atom.tags;
  }
  for (let i = open.length - 1; i >= 0; i -= 1) html += open[i]?.close ?? '';
  return html;
}

/** Drops the blank lines at either end of a message: Telegram trims them, and a blank message is refused. */
function trimmed(atoms: Atom[]): Atom[] {
  const out = atoms.map((atom) => ({ ...atom }));
  while (out.length > 0 && out[0]!.text.trim() === '' && out[0]!.tags.length === 0) out.shift();
  while (out.length > 0 && out.at(-1)!.text.trim() === '' && out.at(-1)!.tags.length === 0) out.pop();
  const first = out[0];
  if (first) first.text = first.text.replace(/^\n+/, '');
  const last = out.at(-1);
  if (last) last.text = last.text.replace(/\n+$/, '');
  return out.filter((atom) => atom.text !== '');
}

function pack(atoms: readonly Atom[], limit: number): Atom[][] {
  const messages: Atom[][] = [];
  let current: Atom[] = [];
  let length = 0;
  const flush = (): void => {
    const kept = trimmed(current);
    if (kept.some((atom) => atom.text.trim() !== '')) messages.push(kept);
    current = [];
    length = 0;
  };
  const queue = [...atoms];
  while (queue.length > 0) {
    const atom = queue.shift()!;
    if (atom.text === '') continue;
    if (length + atom.text.length <= limit) {
      current.push(atom);
      length += atom.text.length;
      continue;
    }
    // A block or line that fits a message of its own starts one rather than being cut.
    if (current.length > 0 && (atom.boundary || atom.text.length <= limit)) {
      flush();
      queue.unshift(atom);
      continue;
    }
    const cut = cutPoint(atom.text, limit - length);
    if (cut === 0) {
      flush();
      queue.unshift(atom);
      continue;
    }
    current.push({ ...atom, text: atom.text.slice(0, cut) });
    flush();
    queue.unshift({ text: atom.text.slice(cut), tags: atom.tags, boundary: true });
  }
  flush();
  return messages;
}

function atomsOf(source: string): Atom[] {
  const atoms: Atom[] = [];
  parseMarkdown(wellFormed(source)).forEach((block, i) => {
    if (i > 0) atoms.push({ text: '\n\n', tags: [], boundary: true });
    blockAtoms(block, [], '', atoms);
  });
  return atoms;
}

/**
 * Model Markdown as Telegram HTML messages: each non-empty, well nested on
 * its own, at most `limit` characters after Telegram parses it, cut between
 * blocks, then lines, sentences, words, and at worst graphemes, never inside
 * a surrogate pair; a code block cut in two is reopened with its language.
 * A reply that renders to nothing visible (an empty fence) is sent as typed.
 */
export function renderTelegram(source: string, limit = TELEGRAM_TEXT_LIMIT): string[] {
  const messages = pack(atomsOf(source), limit).map(serialize);
  if (messages.length > 0 || source.trim() === '') return messages;
  return pack([{ text: wellFormed(source).trim(), tags: [] }], limit).map(serialize);
}

/** The first message of a reply still streaming, cut with "…" when more follows: a preview is always one message. */
export function renderTelegramPreview(source: string, limit = TELEGRAM_TEXT_LIMIT): string | undefined {
  const messages = renderTelegram(source, limit - 1);
  const first = messages[0];
  if (first === undefined) return undefined;
  return messages.length > 1 ? `${first}…` : first;
}
