/** Cells of `text` when it is simple text (one cell a code point), else undefined: string-width must count it. */
export function simpleTextWidth(text: unknown, options?: { countAnsiEscapeCodes?: boolean; ambiguousIsNarrow?: boolean }): number | undefined;
