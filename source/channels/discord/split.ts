import { cutPoint } from '../../markdown/index.js';

/** Discord refuses a message longer than this many characters. */
export const DISCORD_TEXT_LIMIT = 2000;

const FENCE = /^\s{0,3}(`{3,}|~{3,})(.*)$/;

/** `@everyone` and `@here` shown as text, never a ping (allowed_mentions also parses none). */
export function quietMentions(text: string): string {
  return text.replace(/@(everyone|here)\b/g, '@\u200b$1');
}

/**
 * Markdown (Discord renders it) in parts of at most `limit` characters: cut
 * at a blank line when one is in the second half of a part, else at a line;
 * a code fence cut in two is closed at the end of one part and opened again,
 * with its language, at the start of the next, so every part renders alone.
 */
export function splitDiscord(text: string, limit = DISCORD_TEXT_LIMIT): string[] {
  const parts: string[] = [];
  let lines: string[] = [];
  let size = 0;
  /** The fence open at the end of `lines`, and the one open where the last blank line outside a fence was. */
  let fence: { marker: string; opener: string } | undefined;
  let lastBlank = -1;
  const closeFor = (open: typeof fence): string => (open ? `\n${open.marker}` : '');

  const flush = (upTo: number, openAtCut: typeof fence): void => {
    const head = lines.slice(0, upTo).join('\n').replace(/\n+$/, '');
    if (head.trim() !== '') parts.push(head + closeFor(openAtCut));
    const tail = lines.slice(upTo);
    while (tail.length > 0 && tail[0]!.trim() === '' && !openAtCut) tail.shift();
    lines = openAtCut ? [openAtCut.opener, ...tail] : tail;
    size = lines.reduce((n, line) => n + line.length + 1, 0);
    lastBlank = -1;
  };

  for (const raw of text.replace(/\r\n/g, '\n').split('\n')) {
    let line = raw;
    for (;;) {
      const room = limit - size - closeFor(fence).length;
      if (line.length + 1 <= room || (lines.length === 0 && line.length <= limit)) break;
      if (lastBlank >= lines.length / 2 && lastBlank > 0) {
        flush(lastBlank, undefined);
        continue;
      }
      if (lines.length > (fence ? 1 : 0)) {
        flush(lines.length, fence);
        continue;
      }
      // One line longer than a whole part: cut inside it.
      const cut = Math.max(1, cutPoint(line, room - 1));
      lines.push(line.slice(0, cut));
      flush(lines.length, fence);
      line = line.slice(cut);
    }
    const match = FENCE.exec(line);
    if (match) {
      if (!fence) fence = { marker: match[1]!, opener: line.trim() };
      else if (line.trim().startsWith(fence.marker) && line.trim().replace(/[`~]/g, '') === '') fence = undefined;
    } else if (line.trim() === '' && !fence) lastBlank = lines.length;
    lines.push(line);
    size += line.length + 1;
  }
  flush(lines.length, undefined);
  return parts.length > 0 ? parts : [];
}
