/** Telegram refuses a message text longer than this. */
export const TELEGRAM_TEXT_LIMIT = 4096;

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttribute(text: string): string {
  return escapeHtml(text).replace(/"/g, '&quot;');
}

interface Block {
  kind: 'text' | 'code';
  /** Text blocks: markdown; code blocks: the raw code. */
  body: string;
  lang?: string | undefined;
}

const FENCE = /^\s*(`{3,}|~{3,})\s*([\w+-]*)\s*$/;

/** Paragraphs and fenced code blocks, in order; an unclosed fence runs to the end (a reply still streaming). */
function blocksOf(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.replace(/\r\n/g, '\n').split('\n');
  let paragraph: string[] = [];
  const endParagraph = (): void => {
    if (paragraph.some((line) => line.trim() !== '')) blocks.push({ kind: 'text', body: paragraph.join('\n').trim() });
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const open = FENCE.exec(line);
    if (open) {
      endParagraph();
      const marker = open[1]!;
      const code: string[] = [];
      let j = i + 1;
      while (j < lines.length && !(lines[j]!.trim().startsWith(marker) && lines[j]!.trim().replace(/[`~]/g, '') === '')) code.push(lines[j++]!);
      blocks.push({ kind: 'code', body: code.join('\n'), lang: open[2] || undefined });
      i = j;
      continue;
    }
    if (line.trim() === '') endParagraph();
    else paragraph.push(line);
  }
  endParagraph();
  return blocks;
}

/**
 * Inline Markdown of one paragraph → Telegram HTML: code spans, links, bold,
 * italic, strikethrough. The text is escaped first, so anything unbalanced
 * stays visible as the characters the model wrote.
 */
export function inlineToHtml(markdown: string): string {
  const parts = markdown.split(/(`[^`\n]+`)/);
  return parts
    .map((part, index) => {
      if (index % 2 === 1) return `<code>${escapeHtml(part.slice(1, -1))}</code>`;
      let html = escapeHtml(part);
      html = html.replace(
        /\[([^\]\n]+)\]\(((?:https?|tg|mailto):[^)\s]+)\)/g,
        (_m, label: string, url: string) => `<a href="${url.replace(/"/g, '&quot;')}">${label}</a>`,
      );
      html = html.replace(/\*\*([^*\n]+?)\*\*/g, '<b>$1</b>');
      html = html.replace(/(^|[^\w])__([^_\n]+?)__(?!\w)/g, '$1<b>$2</b>');
      html = html.replace(/~~([^~\n]+?)~~/g, '<s>$1</s>');
      html = html.replace(/(^|[^*\w])\*([^*\s][^*\n]*?)\*(?![*\w])/g, '$1<i>$2</i>');
      html = html.replace(/(^|[^\w])_([^_\s][^_\n]*?)_(?!\w)/g, '$1<i>$2</i>');
      return html.replace(/^#{1,6}\s+(.+)$/gm, '<b>$1</b>');
    })
    .join('');
}

function codeHtml(code: string, lang: string | undefined): string {
  const open = lang ? `<pre><code class="language-${escapeAttribute(lang)}">` : '<pre>';
  const close = lang ? '</code></pre>' : '</pre>';
  return `${open}${escapeHtml(code)}${close}`;
}

function blockHtml(block: Block): string {
  return block.kind === 'code' ? codeHtml(block.body, block.lang) : inlineToHtml(block.body);
}

/** The whole reply as one Telegram HTML text (streaming edits; short replies). */
export function markdownToTelegramHtml(markdown: string): string {
  return blocksOf(markdown).map(blockHtml).join('\n\n');
}

/** Pieces of `text` (split at newlines, then spaces, then anywhere) whose rendering fits `limit`. */
function splitPieces(text: string, limit: number, render: (piece: string) => string, separator: string): string[] {
  const units = text.split(separator);
  const pieces: string[] = [];
  let current = '';
  for (const unit of units) {
    const candidate = current === '' ? unit : `${current}${separator}${unit}`;
    if (render(candidate).length <= limit) {
      current = candidate;
      continue;
    }
    if (current !== '') pieces.push(current);
    if (render(unit).length <= limit) {
      current = unit;
      continue;
    }
    if (separator === '\n') {
      pieces.push(...splitPieces(unit, limit, render, ' '));
    } else {
      // One word longer than a message: cut it where it fits.
      let rest = unit;
      while (render(rest).length > limit) {
        let cut = Math.min(rest.length, limit);
        while (cut > 1 && render(rest.slice(0, cut)).length > limit) cut = Math.floor(cut * 0.9);
        pieces.push(rest.slice(0, cut));
        rest = rest.slice(cut);
      }
      pieces.push(rest);
    }
    current = '';
  }
  if (current !== '') pieces.push(current);
  return pieces.filter((piece) => piece !== '');
}

/**
 * A reply as Telegram messages of at most `limit` characters of HTML each,
 * split between paragraphs and code blocks; a block too long for one
 * message is split at its line breaks, and a code block that is split is
 * closed and reopened, so every message is balanced HTML.
 */
export function splitTelegramHtml(markdown: string, limit = TELEGRAM_TEXT_LIMIT): string[] {
  const rendered: string[] = [];
  for (const block of blocksOf(markdown)) {
    const html = blockHtml(block);
    if (html.length <= limit) {
      rendered.push(html);
      continue;
    }
    const render = block.kind === 'code' ? (piece: string) => codeHtml(piece, block.lang) : inlineToHtml;
    for (const piece of splitPieces(block.body, limit, render, '\n')) rendered.push(render(piece));
  }
  const messages: string[] = [];
  let current = '';
  for (const html of rendered) {
    const candidate = current === '' ? html : `${current}\n\n${html}`;
    if (candidate.length <= limit) {
      current = candidate;
      continue;
    }
    if (current !== '') messages.push(current);
    current = html;
  }
  if (current !== '') messages.push(current);
  return messages;
}
