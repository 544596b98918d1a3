import { Marked, type Token, type Tokens, type TokenizerExtension } from 'marked';
import { decodeEntities } from './entities.js';
import type { Align, Block, Inline, ListItem } from './tree.js';

/** Telegram's `||spoiler||`: the markers hug their text, so `a || b || c` stays text. */
const spoiler: TokenizerExtension = {
  name: 'spoiler',
  level: 'inline',
  start: (src) => src.indexOf('||'),
  tokenizer(src) {
    const match = /^\|\|(?=\S)([\s\S]*?\S)\|\|/.exec(src);
    if (!match) return undefined;
    return { type: 'spoiler', raw: match[0], tokens: this.lexer.inlineTokens(match[1] ?? '') };
  },
};

/** One parser for every renderer: CommonMark + GFM (tables, strikethrough, task lists, autolinks). */
const parser = new Marked({ gfm: true, extensions: [spoiler] });

function inlines(tokens: readonly Token[] | undefined): Inline[] {
  const out: Inline[] = [];
  const pushText = (text: string): void => {
    if (text === '') return;
    const last = out.at(-1);
    if (last?.type === 'text') last.text += text;
    else out.push({ type: 'text', text });
  };
  for (const token of tokens ?? []) {
    switch (token.type) {
      case 'text':
        if ('tokens' in token && token.tokens?.length) out.push(...inlines(token.tokens));
        else pushText(decodeEntities(token.text));
        break;
      case 'escape':
        pushText(token.text);
        break;
      case 'strong':
      case 'em':
      case 'del':
      case 'spoiler':
        out.push({ type: token.type, children: inlines(token.tokens) });
        break;
      case 'codespan':
        out.push({ type: 'code', text: decodeEntities(token.text) });
        break;
      case 'br':
        out.push({ type: 'break' });
        break;
      case 'link':
        out.push({
          type: 'link',
          href: token.href,
          raw: token.raw,
          children: inlines(token.tokens),
          ...(token.title ? { title: decodeEntities(token.title) } : {}),
        });
        break;
      case 'image':
        out.push({ type: 'image', src: token.href, alt: decodeEntities(token.text), ...(token.title ? { title: decodeEntities(token.title) } : {}) });
        break;
      default:
        // Inline HTML and anything else the lexer may add: the characters the model wrote.
        pushText('text' in token && typeof token.text === 'string' ? token.text : token.raw);
    }
  }
  return out;
}

function listItem(item: Tokens.ListItem): ListItem {
  return { ...(item.task ? { checked: item.checked === true } : {}), children: blocks(item.tokens) };
}

function blocks(tokens: readonly Token[]): Block[] {
  const out: Block[] = [];
  for (const token of tokens) {
    switch (token.type) {
      case 'space':
      case 'def':
      case 'checkbox':
        // A task item's box is on the item (ListItem.checked).
        break;
      case 'paragraph':
        out.push({ type: 'paragraph', children: inlines(token.tokens) });
        break;
      case 'text':
        // Tight list items hold bare text blocks.
        out.push({ type: 'paragraph', children: token.tokens?.length ? inlines(token.tokens) : [{ type: 'text', text: decodeEntities(token.text) }] });
        break;
      case 'heading':
        out.push({ type: 'heading', depth: token.depth, children: inlines(token.tokens) });
        break;
      case 'code':
        out.push({ type: 'code', lang: (token.lang ?? '').trim().split(/\s+/)[0] ?? '', text: token.text });
        break;
      case 'blockquote':
        out.push({ type: 'quote', children: blocks(token.tokens ?? []) });
        break;
      case 'list': {
        const list = token as Tokens.List;
        const start = typeof list.start === 'number' ? list.start : 1;
        out.push({ type: 'list', ordered: list.ordered, start, items: list.items.map(listItem) });
        break;
      }
      case 'table': {
        const table = token as Tokens.Table;
        out.push({
          type: 'table',
          align: table.align.map((a): Align => a ?? null),
          header: table.header.map((cell) => inlines(cell.tokens)),
          rows: table.rows.map((row) => row.map((cell) => inlines(cell.tokens))),
        });
        break;
      }
      case 'hr':
        out.push({ type: 'rule' });
        break;
      default:
        // Block HTML and anything unknown: shown as written, never interpreted.
        if (token.raw.trim() !== '') out.push({ type: 'html', text: token.raw.replace(/\n+$/, '') });
    }
  }
  return out;
}

/** Lone surrogates (a model's or a cut's) as U+FFFD: no channel accepts text that is not valid UTF-16. */
export function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** Model Markdown → the tree every renderer reads. Never throws: the worst input is text. */
export function parseMarkdown(source: string): Block[] {
  return blocks(parser.lexer(source));
}

/** The characters a reader sees, without formatting: for lengths, previews and plain-text fallbacks. */
export function inlineText(nodes: readonly Inline[]): string {
  return nodes
    .map((node) => {
      switch (node.type) {
        case 'text':
        case 'code':
          return node.text;
        case 'break':
          return '\n';
        case 'image':
          return node.alt;
        default:
          return inlineText(node.children);
      }
    })
    .join('');
}
