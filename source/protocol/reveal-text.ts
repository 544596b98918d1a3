/**
 * Makes every character that could make a command display differently from
 * what runs visible as an escape: control characters and escape sequences
 * (`\e[8m` conceals text in a terminal), invisible and format characters
 * (zero-width, bidi overrides, tag characters, soft hyphen, fillers that
 * render blank) and space look-alikes. Newlines stay real lines.
 */
export interface Revealed {
  text: string;
  /** How many characters were escaped; any at all deserves a warning. */
  escaped: number;
}

const NAMED: Record<string, string> = { '\u001b': '\\e', '\t': '\\t', '\r': '\\r', '\b': '\\b', '\f': '\\f', '\v': '\\v', '\u0000': '\\0', '\u007f': '\\x7f' };

// Cf (format: bidi marks, zero-width, tags, soft hyphen, U+061C), Zl/Zp, Co (private use), Cn (unassigned),
// C0/C1 controls except newline, spaces other than U+0020, and letters that render as blank (Hangul fillers, braille blank).
// The class lists single code points on purpose (joiners and selectors are what it must catch).
const SUSPECT =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: each member is matched alone, never as part of a sequence
  /[\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}\u0000-\u0009\u000b-\u001f\u007f-\u009f\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5\u180b-\u180f\ufe00-\ufe0f\u{e0100}-\u{e01ef}\ud800-\udfff]/gu;

function escapeChar(ch: string): string {
  const named = NAMED[ch];
  if (named) return named;
  const code = ch.codePointAt(0)!;
  return code <= 0x9f ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16).toUpperCase().padStart(4, '0')}}`;
}

export function revealText(text: string): Revealed {
  let escaped = 0;
  const out = text.replace(SUSPECT, (ch) => {
    escaped += 1;
    return escapeChar(ch);
  });
  return { text: out, escaped };
}

/** The warning shown under a command that had hidden characters; undefined when it had none. */
export function revealWarning(escaped: number): string | undefined {
  if (escaped === 0) return undefined;
  return `⚠ ${escaped} hidden or control character${escaped === 1 ? '' : 's'} shown as \\e, \\x…, \\u{…}: the command runs with the raw characters. Deny unless you expected them.`;
}
