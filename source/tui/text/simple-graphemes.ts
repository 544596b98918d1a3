// Grapheme segmentation without ICU for text in which every code point is a
// grapheme of its own: ASCII but CR (CR LF is one grapheme), and the letters
// and symbols of Latin, Greek, Cyrillic, punctuation, arrows, box drawing and
// the like, without combining marks, joiners or other format characters. Such
// text has no code point that joins its neighbour under Unicode's grapheme
// rules (no Extend, ZWJ, SpacingMark, Prepend, Hangul or regional indicator).
// Anything else goes to a real Intl.Segmenter, built on the first string that
// needs one: the first costs ICU's break rules, 20-35 ms. The TUI's own
// width code segments with it, and scripts/build.mjs puts it in place of the
// Segmenters Ink's output and slice-ansi build when they load;
// test/tui/simple-graphemes.test.ts checks it against Intl.Segmenter code
// point by code point.
const SIMPLE = /^(?:[\x00-\x0c\x0e-\x7e]|(?![\p{M}\p{C}])[\u00a0-\u052f\u1e00-\u1fff\u2000-\u2e7f])*$/u;

/** The part of Intl.Segmenter the TUI and those packages use. */
export interface GraphemeSegmenter {
  segment(input: string): Intl.Segments;
  resolvedOptions(): Intl.ResolvedSegmenterOptions;
}

class SimpleSegments implements Intl.Segments {
  constructor(readonly input: string) {}

  containing(index: number | string = 0): Intl.SegmentData | undefined {
    const at = Math.trunc(Number(index)) || 0;
    return at >= 0 && at < this.input.length ? { segment: this.input.charAt(at), index: at, input: this.input } : undefined;
  }

  *[Symbol.iterator](): IterableIterator<Intl.SegmentData> {
    const { input } = this;
    for (let index = 0; index < input.length; index += 1) yield { segment: input.charAt(index), index, input };
  }
}

/** A stand-in for `new Intl.Segmenter(locales, options)` with grapheme granularity. */
export function simpleFirstSegmenter(locales?: Intl.LocalesArgument, options?: Intl.SegmenterOptions): GraphemeSegmenter {
  if (options?.granularity !== undefined && options.granularity !== 'grapheme') return new Intl.Segmenter(locales, options);
  let real: Intl.Segmenter | undefined;
  const segmenter = () => (real ??= new Intl.Segmenter(locales, options));
  return {
    segment(input: string): Intl.Segments {
      const text = String(input);
      return SIMPLE.test(text) ? new SimpleSegments(text) : segmenter().segment(text);
    },
    resolvedOptions: () => segmenter().resolvedOptions(),
  };
}
