import type { Chunk } from './types.js';
import type { DatedChunk } from './index-store.js';

const datedNote = /^memory\/(?:.*\/)?(\d{4})-(\d{2})-(\d{2})[^/]*\.md$/;
// Non-ASCII is escaped, as the build needs (scripts/build.mjs): 2024年3月5日, and 更新 / 更新于 / 更新日期 / 日期 with : or ：.
const isoDate = /(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})|(\d{4})\u{5E74}(\d{1,2})\u{6708}(\d{1,2})\u{65E5}/u;
const heading = /^\s{0,3}#{1,6}\s/;
const updatedLine =
  /^\s*(?:[-*]\s*)?(?:\*\*)?(?:updated|last updated|last update|as of|date|\u{66F4}\u{65B0}|\u{66F4}\u{65B0}\u{4E8E}|\u{66F4}\u{65B0}\u{65E5}\u{671F}|\u{65E5}\u{671F})(?:\*\*)?\s*[:\u{FF1A}]/iu;

function utc(year: string, month: string, day: string): number | undefined {
  const y = Number(year);
  const m = Number(month);
  const d = Number(day);
  if (m < 1 || m > 12 || d < 1 || d > 31) return undefined;
  const time = Date.UTC(y, m - 1, d);
  return Number.isNaN(time) ? undefined : time;
}

/** The day a dated note `memory/YYYY-MM-DD*.md` is about, in epoch ms; undefined for evergreen files. */
export function datedNoteTime(path: string): number | undefined {
  const match = datedNote.exec(path);
  return match ? utc(match[1]!, match[2]!, match[3]!) : undefined;
}

/** A date on a heading (`## 2026-10-09`) or an `Updated: 2026-03-05` line, in epoch ms. */
export function lineDate(line: string): number | undefined {
  if (!heading.test(line) && !updatedLine.test(line)) return undefined;
  const match = isoDate.exec(line);
  if (!match) return undefined;
  return match[1] ? utc(match[1], match[2]!, match[3]!) : utc(match[4]!, match[5]!, match[6]!);
}

/**
 * When each chunk is about, for "what is the current …" questions: a dated
 * note by its name; otherwise the newest date heading or `Updated:` line in
 * the chunk, else the last one above it (the section it belongs to), else the
 * file's modification time.
 */
export function dateChunks(path: string, content: string, chunks: Chunk[], mtimeMs: number): DatedChunk[] {
  const fromName = datedNoteTime(path);
  if (fromName !== undefined) return chunks.map((chunk) => ({ ...chunk, noteTime: fromName, noteTimeFrom: 'file name' }));
  const markers: { line: number; time: number }[] = [];
  content.split(/\r?\n/).forEach((text, index) => {
    const time = lineDate(text);
    if (time !== undefined) markers.push({ line: index + 1, time });
  });
  const fileTime = Math.floor(mtimeMs);
  return chunks.map((chunk) => {
    const inside = markers.filter((m) => m.line >= chunk.startLine && m.line <= chunk.endLine);
    const above = markers.filter((m) => m.line < chunk.startLine).at(-1);
    const time = inside.length > 0 ? Math.max(...inside.map((m) => m.time)) : above?.time;
    return time === undefined ? { ...chunk, noteTime: fileTime, noteTimeFrom: 'file time' } : { ...chunk, noteTime: time, noteTimeFrom: 'heading' };
  });
}
