import { afterEach, describe, expect, it } from 'vitest';
import { simpleFirstSegmenter } from '../../source/tui/text/simple-graphemes.js';

const icu = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const icuSegments = Object.getPrototypeOf(icu.segment(''));
const segments = (of: Iterable<Intl.SegmentData>): Array<[string, number]> => [...of].map(({ segment, index }) => [segment, index]);

const RealSegmenter = Intl.Segmenter;
const writableIntl = Intl as { Segmenter: typeof Intl.Segmenter };
afterEach(() => {
  writableIntl.Segmenter = RealSegmenter;
});

/** Counts the real Segmenters built while `run` runs. */
function realBuilds(run: () => void): number {
  let built = 0;
  writableIntl.Segmenter = class extends RealSegmenter {
    constructor(...args: ConstructorParameters<typeof Intl.Segmenter>) {
      super(...args);
      built += 1;
    }
  } as typeof Intl.Segmenter;
  run();
  return built;
}

describe('simpleFirstSegmenter (in place of the Segmenters of Ink output and slice-ansi)', () => {
  it('splits like Intl.Segmenter every BMP code point, alone, between neighbours, in runs and in colour codes', () => {
    const simple = simpleFirstSegmenter(undefined, { granularity: 'grapheme' });
    const key = (of: Iterable<Intl.SegmentData>): string => segments(of).join('|');
    const neighbours = ['a', ' ', '\x1b', '\n', '\u00e9', '\u2500', '\u25cf'];
    const mismatches: string[] = [];
    let answered = 0;
    let run = '';
    for (let code = 0; code <= 0xffff; code += 1) {
      const char = String.fromCharCode(code);
      run += char;
      const texts = [char, char.repeat(3), ...neighbours.flatMap((n) => [`${n}${char}`, `${char}${n}`]), `\x1b[31m${char}\x1b[39m`];
      if (run.length === 64 || code === 0xffff) texts.push(run);
      if (run.length === 64) run = '';
      for (const text of texts) {
        const answer = simple.segment(text);
        // The rest is ICU's own answer.
        if (Object.getPrototypeOf(answer) === icuSegments) continue;
        answered += 1;
        if (key(answer) !== key(icu.segment(text))) mismatches.push(`U+${code.toString(16)} in ${JSON.stringify(text)}`);
      }
    }
    expect(mismatches.slice(0, 20)).toEqual([]);
    // The shortcut must cover what the TUI draws most, or it is pointless.
    expect(answered).toBeGreaterThan(17 * 2000);
  }, 120_000);

  it('builds no real Segmenter for the TUI chrome, and one for the first text that needs it', () => {
    let simple: ReturnType<typeof simpleFirstSegmenter> | undefined;
    expect(
      realBuilds(() => {
        simple = simpleFirstSegmenter(undefined, { granularity: 'grapheme' });
        segments(simple.segment('claw · main ❯ ● 12 sessions ─── … → ✓ ⠋ \x1b[1mbold\x1b[22m\r'.slice(0, -1)));
      }),
    ).toBe(0);
    for (const text of ['e\u0301', '👍🏽', '🇩🇪', 'a\u200db', '한글', '\r\n', 'क्षि'])
      expect(segments(simple!.segment(text)), JSON.stringify(text)).toEqual(segments(icu.segment(text)));
    expect(realBuilds(() => segments(simpleFirstSegmenter().segment('e\u0301')))).toBe(1);
  });

  it('answers containing() as Intl.Segmenter does', () => {
    const text = 'ab ● c';
    const simple = simpleFirstSegmenter(undefined, { granularity: 'grapheme' }).segment(text);
    for (const index of [0, 1, 3, 5, 6, -1, 2.7]) expect(simple.containing(index), String(index)).toEqual(icu.segment(text).containing(index));
  });
});
