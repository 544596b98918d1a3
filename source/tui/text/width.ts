import { simpleFirstSegmenter } from './simple-graphemes.js';

/**
 * Terminal cell widths, so wrapping and the cursor agree with what the
 * terminal draws: CJK and emoji take two cells, combining marks none.
 *
 * Terminals disagree on emoji sequences: tmux 3.3 draws 👍🏽 in four cells and
 * ❤️ in one, xterm draws 👨‍👩‍👧 in six, kitty draws all three in two, and Ink
 * lays rows out with string-width, which says two for each. A row measured by
 * one rule and drawn by another overflows, scrolls, and loses the header. So
 * text is drawn in a form every one of them measures the same way
 * (`displayText`): ZWJ sequences as their separate emoji, without skin-tone
 * modifiers, variation selectors or tag characters.
 */
// Splits simple text itself: the first Intl.Segmenter loads ICU's break rules (20-35 ms), and a first frame of plain text never needs it.
const segmenter = simpleFirstSegmenter(undefined, { granularity: 'grapheme' });

const WIDE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f],
  [0x231a, 0x231b],
  [0x2329, 0x232a],
  [0x23e9, 0x23ec],
  [0x23f0, 0x23f0],
  [0x23f3, 0x23f3],
  [0x25fd, 0x25fe],
  [0x2614, 0x2615],
  [0x2648, 0x2653],
  [0x267f, 0x267f],
  [0x2693, 0x2693],
  [0x26a1, 0x26a1],
  [0x26aa, 0x26ab],
  [0x26bd, 0x26be],
  [0x26c4, 0x26c5],
  [0x26ce, 0x26ce],
  [0x26d4, 0x26d4],
  [0x26ea, 0x26ea],
  [0x26f2, 0x26f3],
  [0x26f5, 0x26f5],
  [0x26fa, 0x26fa],
  [0x26fd, 0x26fd],
  [0x2705, 0x2705],
  [0x270a, 0x270b],
  [0x2728, 0x2728],
  [0x274c, 0x274c],
  [0x274e, 0x274e],
  [0x2753, 0x2755],
  [0x2757, 0x2757],
  [0x2795, 0x2797],
  [0x27b0, 0x27b0],
  [0x27bf, 0x27bf],
  [0x2b1b, 0x2b1c],
  [0x2b50, 0x2b50],
  [0x2b55, 0x2b55],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x16fe0, 0x16fe4],
  [0x17000, 0x18cff],
  [0x1b000, 0x1b2ff],
  [0x1f004, 0x1f004],
  [0x1f0cf, 0x1f0cf],
  [0x1f18e, 0x1f18e],
  [0x1f191, 0x1f19a],
  [0x1f200, 0x1f251],
  [0x1f300, 0x1f64f],
  [0x1f680, 0x1f6ff],
  [0x1f7e0, 0x1f7eb],
  [0x1f90c, 0x1f9ff],
  [0x1fa70, 0x1faff],
  [0x20000, 0x3fffd],
];

function isWide(codePoint: number): boolean {
  let low = 0;
  let high = WIDE_RANGES.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const [start, end] = WIDE_RANGES[mid]!;
    if (codePoint < start) high = mid - 1;
    else if (codePoint > end) low = mid + 1;
    else return true;
  }
  return false;
}

const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}\p{Cc}]+$/u;

/** ZWJ, variation selectors, skin-tone modifiers and tag characters: the parts terminals disagree on. */
const AMBIGUOUS = /[\u200D\uFE0E\uFE0F\u{1F3FB}-\u{1F3FF}\u{E0020}-\u{E007F}]/gu;
const HAS_AMBIGUOUS = /[\u200D\uFE0E\uFE0F\u{1F3FB}-\u{1F3FF}\u{E0020}-\u{E007F}]/u;

/** Text as the TUI draws it: every terminal and Ink agree on its width. */
export function displayText(text: string): string {
  return HAS_AMBIGUOUS.test(text) ? text.replace(AMBIGUOUS, '') : text;
}

/** Cells one grapheme cluster occupies once drawn (see displayText). */
export function graphemeWidth(grapheme: string): number {
  const codePoint = grapheme.codePointAt(0) ?? 0;
  if (codePoint < 0x7f && codePoint >= 0x20) return 1;
  if (HAS_AMBIGUOUS.test(grapheme)) return stringWidth(displayText(grapheme));
  if (grapheme === '' || ZERO_WIDTH.test(grapheme)) return 0;
  if (codePoint >= 0x1f1e6 && codePoint <= 0x1f1ff) return 2;
  // A combining mark after a base character adds no cell.
  return isWide(codePoint) ? 2 : 1;
}

export function graphemes(text: string): string[] {
  return Array.from(segmenter.segment(text), (s) => s.segment);
}

/** Cells a single-line string occupies. */
export function stringWidth(text: string): number {
  let width = 0;
  let ascii = true;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code >= 0x7f) {
      ascii = false;
      break;
    }
  }
  if (ascii) return text.length;
  for (const { segment } of segmenter.segment(displayText(text))) width += graphemeWidth(segment);
  return width;
}

/** Cuts a string to at most `width` cells, adding an ellipsis when it was cut. */
export function truncate(raw: string, width: number): string {
  if (width <= 0) return '';
  const text = displayText(raw);
  if (stringWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  for (const g of graphemes(text)) {
    const w = graphemeWidth(g);
    if (used + w > width - 1) break;
    out += g;
    used += w;
  }
  return `${out}…`;
}

/** Pads with spaces to exactly `width` cells (truncating when longer). */
export function padTo(text: string, width: number): string {
  const cut = truncate(text, width);
  return cut + ' '.repeat(Math.max(0, width - stringWidth(cut)));
}
