import type { Hunk, HunkLine } from './patch-parser.js';

/** Why a hunk did not apply, in words a model can act on. */
export class HunkMismatch extends Error {}

interface SplitText {
  lines: string[];
  eol: '\n' | '\r\n';
  finalNewline: boolean;
}

/** Lines of a file, remembering its line ending so CRLF files stay CRLF. */
export function splitText(text: string): SplitText {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const finalNewline = text.endsWith('\n');
  const body = finalNewline ? text.slice(0, text.endsWith('\r\n') ? -2 : -1) : text;
  const lines = body === '' && !finalNewline ? [] : body.split(eol);
  return { lines, eol, finalNewline };
}

export function joinText({ lines, eol, finalNewline }: SplitText): string {
  if (lines.length === 0) return '';
  return lines.join(eol) + (finalNewline ? eol : '');
}

type Compare = (a: string, b: string) => boolean;
const exact: Compare = (a, b) => a === b;
const looseEnds: Compare = (a, b) => a.trimEnd() === b.trimEnd();
const looseBoth: Compare = (a, b) => a.trim() === b.trim();

function matchesAt(lines: readonly string[], pattern: readonly string[], at: number, same: Compare): boolean {
  if (at < 0 || at + pattern.length > lines.length) return false;
  for (let k = 0; k < pattern.length; k += 1) if (!same(lines[at + k]!, pattern[k]!)) return false;
  return true;
}

/** First index ≥ from where pattern matches, exact first, then ignoring whitespace at line ends. */
function seek(lines: readonly string[], pattern: readonly string[], from: number, endOfFile: boolean): number {
  for (const same of [exact, looseEnds]) {
    if (endOfFile) {
      const at = lines.length - pattern.length;
      if (at >= from && matchesAt(lines, pattern, at, same)) return at;
    }
    for (let at = from; at + pattern.length <= lines.length; at += 1) if (matchesAt(lines, pattern, at, same)) return at;
  }
  return -1;
}

function seekAnchor(lines: readonly string[], anchor: string, from: number): number {
  for (const same of [exact, looseBoth]) {
    for (let at = from; at < lines.length; at += 1) if (same(lines[at]!, anchor)) return at;
  }
  return -1;
}

/** Where the hunk comes closest to matching, to show the first line that differs. */
function closestMiss(lines: readonly string[], pattern: readonly string[], from: number): string {
  let best = { at: -1, count: 0 };
  for (let at = from; at < lines.length; at += 1) {
    let count = 0;
    while (count < pattern.length && at + count < lines.length && looseEnds(lines[at + count]!, pattern[count]!)) count += 1;
    if (count > best.count) best = { at, count };
  }
  if (best.at < 0) return `Not even its first line ${JSON.stringify(pattern[0])} occurs after line ${from}.`;
  const fileLine = lines[best.at + best.count];
  return `Closest match starts at line ${best.at + 1}: ${best.count} of ${pattern.length} lines agree, then the hunk expects ${JSON.stringify(pattern[best.count])} but the file has ${fileLine === undefined ? 'its end' : JSON.stringify(fileLine)}.`;
}

function describeHunk(hunk: Hunk, index: number): string {
  return `hunk ${index + 1}${hunk.anchor ? ` (@@ ${hunk.anchor})` : ''}`;
}

/**
 * Applies hunks in order, each after the previous one, to a file's text.
 * Throws HunkMismatch naming the hunk and the lines that did not match.
 */
export function applyHunks(text: string, hunks: readonly Hunk[]): string {
  const file = splitText(text);
  const { lines } = file;
  const edits: { at: number; remove: number; insert: string[] }[] = [];
  let cursor = 0;
  hunks.forEach((hunk, index) => {
    if (hunk.anchor) {
      const anchorAt = seekAnchor(lines, hunk.anchor, cursor);
      if (anchorAt < 0) throw new HunkMismatch(`${describeHunk(hunk, index)}: the @@ line ${JSON.stringify(hunk.anchor)} was not found after line ${cursor}.`);
      cursor = anchorAt + 1;
    }
    const oldOf = (part: readonly HunkLine[]) => part.filter((l) => l.kind !== 'add').map((l) => l.text);
    // A hunk with no old lines inserts after its @@ line, or appends when it has none.
    const locate = (part: readonly HunkLine[]) => {
      const old = oldOf(part);
      if (old.length === 0) return hunk.anchor ? cursor : lines.length;
      return seek(lines, old, cursor, hunk.endOfFile);
    };
    let body = hunk.lines;
    let at = locate(body);
    // A blank context line a model left between sections is not part of the file.
    while (at < 0 && body.length > 1 && body[body.length - 1]!.kind === 'context' && body[body.length - 1]!.text.trim() === '') {
      body = body.slice(0, -1);
      at = locate(body);
    }
    const old = oldOf(body);
    if (at < 0) {
      const expected = hunk.lines
        .filter((l) => l.kind !== 'add')
        .map((l) => `  ${l.kind === 'remove' ? '-' : ' '}${l.text}`)
        .join('\n');
      throw new HunkMismatch(
        `${describeHunk(hunk, index)} did not match. It expects these lines${cursor > 0 ? ` after line ${cursor}` : ''}:\n${expected}\n${closestMiss(lines, oldOf(hunk.lines), cursor)}`,
      );
    }
    // Context lines keep the file's own text, which may differ in trailing whitespace.
    const insert: string[] = [];
    let offset = 0;
    for (const line of body) {
      if (line.kind === 'add') insert.push(line.text);
      else if (line.kind === 'context') insert.push(lines[at + offset++]!);
      else offset += 1;
    }
    edits.push({ at, remove: old.length, insert });
    cursor = at + old.length;
  });
  for (const edit of [...edits].reverse()) lines.splice(edit.at, edit.remove, ...edit.insert);
  // An edit that leaves text in a file that had none still gets a final newline.
  return joinText({ ...file, finalNewline: file.finalNewline || text === '' });
}

/** Content of an added file: its lines with a final newline. */
export function addedText(lines: readonly string[]): string {
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
