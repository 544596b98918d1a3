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

/** Blanks comments and trailing commas with spaces so offsets stay meaningful. */
function stripJsoncSyntax(text: string): string {
  const out = text.split('');
  let i = 0;
  let inString = false;
  while (i < out.length) {
    const ch = out[i];
    if (inString) {
      if (ch === '\\') i += 2;
      else { if (ch === '"') inString = false; i += 1; }
      continue;
    }
    if (ch === '"') { inString = true; i += 1; continue; }
    if (ch === '/' && out[i + 1] === '/') {
      while (i < out.length && out[i] !== '\n') out[i++] = ' ';
      continue;
    }
    if (ch === '/' && out[i + 1] === '*') {
      out[i++] = ' '; out[i++] = ' ';
      while (i < out.length && !(out[i] === '*' && out[i + 1] === '/')) {
        if (out[i] !== '\n') out[i] = ' ';
        i += 1;
      }
      if (i < out.length) { out[i++] = ' '; out[i++] = ' '; }
      continue;
    }
    if (ch === ',') {
      let j = i + 1;
      while (j < out.length && /\s/.test(out[j] ?? '')) j += 1;
      if (out[j] === '}' || out[j] === ']') out[i] = ' ';
    }
    i += 1;
  }
  return out.join('');
}
