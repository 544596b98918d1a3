import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { simpleTextWidth } from '../../scripts/simple-text-width.mjs';

type StringWidth = (text: string, options?: { countAnsiEscapeCodes?: boolean; ambiguousIsNarrow?: boolean }) => number;

// Both string-width versions the TUI bundles: Ink's and wrap-ansi's own.
const require = createRequire(import.meta.url);
const versions = async (): Promise<Array<[string, StringWidth]>> => {
  const paths = [require.resolve('string-width'), require.resolve('string-width', { paths: [require.resolve('wrap-ansi')] })];
  expect(new Set(paths).size, 'wrap-ansi has its own string-width').toBe(2);
  return Promise.all(paths.map(async (path) => [path, (await import(pathToFileURL(path).href)).default as StringWidth] as [string, StringWidth]));
};

describe('simpleTextWidth (the answer bundled in front of string-width)', () => {
  it('agrees with both string-width versions on every code point it answers for, alone and in runs', async () => {
    const real = await versions();
    let answered = 0;
    for (let code = 0x20; code <= 0xffff; code += 1) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const char = String.fromCharCode(code);
      for (const text of [char, `a${char}b`, char.repeat(3), `\x1b[31m${char}\x1b[39m`]) {
        const simple = simpleTextWidth(text);
        if (simple === undefined) continue;
        answered += 1;
        for (const [path, width] of real) expect(simple, `U+${code.toString(16)} in ${JSON.stringify(text)} (${path})`).toBe(width(text));
      }
    }
    // The shortcut must cover what the TUI draws most, or it is pointless.
    expect(answered).toBeGreaterThan(4 * 2000);
  });

  it('answers for the TUI chrome and leaves wide, emoji, combining and escaped text to string-width', () => {
    expect(simpleTextWidth('claw · main ❯ ● 12 sessions ─── … → ✓ ⠋')).toBe(39);
    expect(simpleTextWidth('\x1b[1m\x1b[36mbold\x1b[39m\x1b[22m')).toBe(4);
    for (const text of ['漢字', '👍', '❤️', 'e\u0301', 'a\u200db', '1\ufe0f\u20e3', '\x1b]8;;https://x\x07link\x1b]8;;\x07', '\u2329'])
      expect(simpleTextWidth(text), JSON.stringify(text)).toBeUndefined();
    expect(simpleTextWidth('\x1b[31mred\x1b[39m', { countAnsiEscapeCodes: true })).toBeUndefined();
    expect(simpleTextWidth('● open', { ambiguousIsNarrow: false })).toBeUndefined();
    expect(simpleTextWidth(42)).toBeUndefined();
  });
});
