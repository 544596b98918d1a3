/**
 * Parser for the patch envelope coding agents use:
 *
 *   *** Begin Patch
 *   *** Add File: path          (every line prefixed `+`)
 *   *** Delete File: path
 *   *** Update File: path
 *   *** Move to: new/path       (optional)
 *   @@ optional context line
 *    context / -removed / +added
 *   *** End of File             (optional: the hunk ends at the end of the file)
 *   *** End Patch
 */

export interface HunkLine {
  kind: 'context' | 'remove' | 'add';
  text: string;
}

export interface Hunk {
  /** Text after `@@`: a line the hunk comes after (empty when none was given). */
  anchor: string;
  lines: HunkLine[];
  /** The hunk must match at the end of the file. */
  endOfFile: boolean;
}

export type PatchOperation =
  | { type: 'add'; path: string; lines: string[] }
  | { type: 'delete'; path: string }
  | { type: 'update'; path: string; moveTo?: string; hunks: Hunk[] };

export class PatchError extends Error {}

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File: ';
const DELETE = '*** Delete File: ';
const UPDATE = '*** Update File: ';
const MOVE = '*** Move to: ';
const END_OF_FILE = '*** End of File';
/** `@@ -12,3 +12,4 @@` headers carry no anchor text: line numbers are ignored, context decides. */
const UNIFIED_RANGE = /^-\d+(,\d+)? \+\d+(,\d+)? @@/;

function pathAfter(line: string, prefix: string, lineNo: number): string {
  const path = line.slice(prefix.length).trim();
  if (!path) throw new PatchError(`Line ${lineNo}: "${prefix.trim()}" needs a path.`);
  return path;
}

function anchorOf(line: string): string {
  const rest = line.slice(2).trim();
  return UNIFIED_RANGE.test(rest) ? '' : rest;
}

/** Parses the envelope into operations; throws PatchError naming the line that is wrong. */
export function parsePatch(text: string): PatchOperation[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  let start = 0;
  while (start < lines.length && lines[start]!.trim() === '') start += 1;
  if (lines[start]?.trim() !== BEGIN) throw new PatchError(`A patch must start with "${BEGIN}".`);
  if (lines[lines.length - 1]?.trim() !== END) throw new PatchError(`A patch must end with "${END}".`);
  const body = lines.slice(start + 1, -1);
  const operations: PatchOperation[] = [];
  let i = 0;
  const lineNo = () => start + 2 + i;
  while (i < body.length) {
    const line = body[i]!;
    if (line.startsWith(ADD)) {
      const path = pathAfter(line, ADD, lineNo());
      i += 1;
      const added: string[] = [];
      while (i < body.length && !body[i]!.startsWith('*** ')) {
        const content = body[i]!;
        if (!content.startsWith('+')) throw new PatchError(`Line ${lineNo()}: every line of an added file starts with "+" (in ${path}).`);
        added.push(content.slice(1));
        i += 1;
      }
      operations.push({ type: 'add', path, lines: added });
    } else if (line.startsWith(DELETE)) {
      operations.push({ type: 'delete', path: pathAfter(line, DELETE, lineNo()) });
      i += 1;
    } else if (line.startsWith(UPDATE)) {
      const path = pathAfter(line, UPDATE, lineNo());
      i += 1;
      let moveTo: string | undefined;
      if (body[i]?.startsWith(MOVE)) {
        moveTo = pathAfter(body[i]!, MOVE, lineNo());
        i += 1;
      }
      const hunks: Hunk[] = [];
      while (i < body.length && (!body[i]!.startsWith('*** ') || body[i] === END_OF_FILE)) {
        const header = body[i]!;
        let hunk: Hunk;
        if (header.startsWith('@@')) {
          hunk = { anchor: anchorOf(header), lines: [], endOfFile: false };
          i += 1;
        } else if (hunks.length === 0) {
          // The first hunk may leave out its `@@` line.
          hunk = { anchor: '', lines: [], endOfFile: false };
        } else {
          throw new PatchError(`Line ${lineNo()}: expected "@@" to start a hunk in ${path}, got "${header}".`);
        }
        while (i < body.length && !body[i]!.startsWith('@@') && !body[i]!.startsWith('*** ')) {
          const content = body[i]!;
          const mark = content[0];
          // A bare empty line is an empty context line whose leading space was trimmed.
          if (content === '') hunk.lines.push({ kind: 'context', text: '' });
          else if (mark === ' ') hunk.lines.push({ kind: 'context', text: content.slice(1) });
          else if (mark === '-') hunk.lines.push({ kind: 'remove', text: content.slice(1) });
          else if (mark === '+') hunk.lines.push({ kind: 'add', text: content.slice(1) });
          else throw new PatchError(`Line ${lineNo()}: hunk lines start with " ", "-" or "+" (in ${path}), got "${content}".`);
          i += 1;
        }
        if (body[i] === END_OF_FILE) {
          hunk.endOfFile = true;
          i += 1;
        }
        if (hunk.lines.length === 0) throw new PatchError(`Line ${lineNo()}: an empty hunk in ${path}.`);
        hunks.push(hunk);
      }
      if (hunks.length === 0 && moveTo === undefined) throw new PatchError(`"${UPDATE}${path}" has no hunks.`);
      operations.push(moveTo === undefined ? { type: 'update', path, hunks } : { type: 'update', path, moveTo, hunks });
    } else if (line.trim() === '') {
      i += 1;
    } else {
      throw new PatchError(`Line ${lineNo()}: expected "${ADD.trim()}", "${DELETE.trim()}" or "${UPDATE.trim()}", got "${line}".`);
    }
  }
  if (operations.length === 0) throw new PatchError('The patch has no file operations.');
  return operations;
}
