import { displayText, graphemeWidth, graphemes, stringWidth } from './width.js';

/**
 * Wraps text to `width` cells: explicit newlines are kept, lines break at
 * spaces when a word fits, and anything longer (URLs, CJK runs, commands) is
 * cut at grapheme boundaries so nothing is ever lost or truncated.
 */
export function wrapText(text: string, width: number): string[] {
  const limit = Math.max(1, width);
  const out: string[] = [];
  for (const rawLine of displayText(text).replace(/\r\n?/g, '\n').replace(/\t/g, '  ').split('\n')) {
    if (stringWidth(rawLine) <= limit) {
      out.push(rawLine);
      continue;
    }
    wrapLine(rawLine, limit, out);
  }
  return out;
}

function wrapLine(line: string, limit: number, out: string[]): void {
  let current = '';
  let currentWidth = 0;
  for (const word of line.split(/(?<= )/)) {
    const wordWidth = stringWidth(word);
    // A trailing space may hang past the edge; it is trimmed when the line breaks.
    if (currentWidth + stringWidth(word.trimEnd()) <= limit) {
      current += word;
      currentWidth += wordWidth;
      continue;
    }
    if (current !== '' && stringWidth(word.trimEnd()) <= limit) {
      out.push(current.trimEnd());
      current = word;
      currentWidth = wordWidth;
      continue;
    }
    for (const g of graphemes(word)) {
      const w = graphemeWidth(g);
      if (currentWidth + w > limit && current !== '') {
        out.push(current.trimEnd());
        current = '';
        currentWidth = 0;
      }
      current += g;
      currentWidth += w;
    }
  }
  if (current !== '' || out.length === 0) out.push(current.trimEnd());
}
