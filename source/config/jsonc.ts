/**
 * Parses JSON that may contain // and /* *\/ comments and trailing commas, the
 * way people hand-edit config files. Errors carry a line and column.
 */
export function parseJsonc(text: string, source = 'JSON'): unknown {
  const stripped = stripJsoncSyntax(text);
  try {
    return JSON.parse(stripped);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message);
    if (position) {
      const offset = Number(position[1]);
      const before = stripped.slice(0, offset);
      const line = before.split('\n').length;
      const column = offset - before.lastIndexOf('\n');
      throw new Error(`${source}: invalid JSON at line ${line}, column ${column}: ${message}`);
    }
    throw new Error(`${source}: invalid JSON: ${message}`);
  }
}

/**
 * Blanks comments, then trailing commas, with spaces so offsets stay
 * meaningful. Two passes so a comma followed by a comment and then `}` is
 * still seen as trailing.
 */
function stripJsoncSyntax(text: string): string {
  const out = text.split('');
  forEachOutsideStrings(out, (i) => {
    if (out[i] === '/' && out[i + 1] === '/') {
      let j = i;
      while (j < out.length && out[j] !== '\n') out[j++] = ' ';
      return j;
    }
    if (out[i] === '/' && out[i + 1] === '*') {
      let j = i + 2;
      while (j < out.length && !(out[j] === '*' && out[j + 1] === '/')) j += 1;
      const end = Math.min(j + 2, out.length);
      for (let k = i; k < end; k += 1) if (out[k] !== '\n') out[k] = ' ';
      return end;
    }
    return i + 1;
  });
  forEachOutsideStrings(out, (i) => {
    if (out[i] === ',') {
      let j = i + 1;
      while (j < out.length && /\s/.test(out[j] ?? '')) j += 1;
      if (out[j] === '}' || out[j] === ']') out[i] = ' ';
    }
    return i + 1;
  });
  return out.join('');
}

/** Calls `visit` at each index outside string literals; it returns the next index to look at. */
function forEachOutsideStrings(chars: string[], visit: (index: number) => number): void {
  let i = 0;
  while (i < chars.length) {
    if (chars[i] === '"') {
      i += 1;
      while (i < chars.length && chars[i] !== '"') i += chars[i] === '\\' ? 2 : 1;
      i += 1;
      continue;
    }
    i = visit(i);
  }
}
