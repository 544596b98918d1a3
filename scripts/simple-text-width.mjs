// The width string-width gives, without its grapheme segmentation, for text
// where that answer is simply one cell per code point: printable ASCII and
// the narrow, non-emoji, non-combining letters and symbols of Latin, Greek,
// Cyrillic, punctuation, arrows, box drawing and the like, with or without
// colour codes. Anything else (CJK, emoji, marks, joiners, other escapes)
// gives undefined and goes to string-width itself. Bundled in front of every
// string-width by scripts/build.mjs; test/tui/simple-text-width.test.ts checks
// it against both versions the TUI bundles, code point by code point.
import { eastAsianWidth } from 'get-east-asian-width';

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const SIMPLE =
  /^(?:[\x20-\x7e]|(?![\p{Extended_Pictographic}\p{Emoji}\p{M}\p{C}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u2329\u232a])[\u00a0-\u052f\u1e00-\u1fff\u2000-\u2e7f])*$/u;
const SGR = /\x1b\[[0-9;]*m/g;

/** Cells of `string` when it is simple text (see above), else undefined. */
export function simpleTextWidth(string, options) {
  if (typeof string !== 'string') return undefined;
  if (PRINTABLE_ASCII.test(string)) return string.length;
  let text = string;
  if (text.includes('\x1b')) {
    if (options?.countAnsiEscapeCodes) return undefined;
    text = text.replace(SGR, '');
    if (PRINTABLE_ASCII.test(text)) return text.length;
  }
  if (options?.ambiguousIsNarrow === false || !SIMPLE.test(text)) return undefined;
  // Every code point SIMPLE admits is in the BMP (one UTF-16 unit); the ones
  // East Asian Width calls wide (trigrams, say) are string-width's to count.
  for (let i = 0; i < text.length; i += 1) if (eastAsianWidth(text.charCodeAt(i)) !== 1) return undefined;
  return text.length;
}
