import { readFileSync } from 'node:fs';
import { ClawError } from '../protocol/index.js';
import { allowedRealRoots, isAllowedMemoryFile, resolveDisplayPath } from './sources.js';
import type { MemoryGetParams, MemoryGetResult, MemoryRoots } from './types.js';

const MAX_LINES = 400;

/**
 * Reads lines of a memory file. The path must resolve (symlinks included) to
 * a markdown file inside MEMORY.md, memory/ or an extra path; anything else
 * is refused, so the tool cannot be used to read the rest of the disk.
 */
export function readMemoryLines(roots: MemoryRoots, params: MemoryGetParams): MemoryGetResult {
  const absPath = resolveDisplayPath(params.path, roots);
  const real = isAllowedMemoryFile(absPath, allowedRealRoots(roots));
  if (!real) {
    throw new ClawError(
      'forbidden',
      `"${params.path}" is not a memory file. memory_get reads only MEMORY.md, memory/**/*.md and memory.extraPaths; use a path returned by memory_search.`,
    );
  }
  const all = readFileSync(real, 'utf8').split(/\r?\n/);
  const from = Math.max(1, Math.floor(params.from ?? 1));
  const count = Math.min(MAX_LINES, Math.max(1, Math.floor(params.lines ?? MAX_LINES)));
  const slice = all.slice(from - 1, from - 1 + count);
  return { path: params.path, from, to: from + slice.length - 1, totalLines: all.length, text: slice.join('\n') };
}
