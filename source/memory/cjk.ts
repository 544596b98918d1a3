/**
 * The CJK characters keyword search treats as bigram text: Han (with the
 * radicals, iteration marks and the supplementary-plane extensions),
 * Hiragana, Katakana and Hangul. Spelled out as ranges because V8 runs a
 * class of ranges several times faster than `\p{Script=…}`, and the index is
 * built with these over every line of every note.
 */
const CJK_CLASS =
  '\\u2E80-\\u2FDF\\u3005-\\u3007\\u3021-\\u3029\\u3038-\\u303B\\u3040-\\u30FF\\u3131-\\u318E\\u31F0-\\u31FF\\u3400-\\u4DBF\\u4E00-\\u9FFF\\uA960-\\uA97F\\uAC00-\\uD7AF\\uF900-\\uFAFF\\uFF66-\\uFF9D\\u{20000}-\\u{3134F}';

export const cjkRunGlobal = new RegExp(`[${CJK_CLASS}]+`, 'gu');

function isCjkCode(code: number): boolean {
  return (
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0xac00 && code <= 0xd7af) ||
    (code >= 0x3040 && code <= 0x30ff) ||
    (code >= 0x2e80 && code <= 0x2fdf) ||
    (code >= 0x3005 && code <= 0x3007) ||
    (code >= 0x3021 && code <= 0x3029) ||
    (code >= 0x3038 && code <= 0x303b) ||
    (code >= 0x3131 && code <= 0x318e) ||
    (code >= 0x31f0 && code <= 0x31ff) ||
    (code >= 0xa960 && code <= 0xa97f) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xff66 && code <= 0xff9d) ||
    (code >= 0x20000 && code <= 0x3134f)
  );
}

/** How many characters of `text` are CJK, without building a match array per line. */
export function countCjk(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.codePointAt(i)!;
    if (code > 0xffff) i++;
    if (code >= 0x2e80 && isCjkCode(code)) count++;
  }
  return count;
}
