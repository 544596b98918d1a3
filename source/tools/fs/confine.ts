import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

export class PathRefused extends Error {}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Real path of `path`, following symlinks of the part that exists; the missing tail is appended as written. */
function realpathAllowMissing(path: string): string {
  const missing: string[] = [];
  let current = path;
  for (;;) {
    try {
      return join(realpathSync(current), ...missing.reverse());
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      const parent = dirname(current);
      if (parent === current) return path;
      missing.push(basename(current));
      current = parent;
    }
  }
}

function inside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && !rel.startsWith(`..${sep}`));
}

/**
 * Resolves a tool's path argument to the real file it names and refuses it
 * unless it lies inside the workspace or a configured root. Symlinks are
 * followed before the check, so a link pointing out is refused, and so is a
 * not-yet-existing file under such a link.
 */
export function confinePath(input: string, workspaceDir: string, roots: readonly string[]): string {
  const target = realpathAllowMissing(resolve(workspaceDir, input));
  const allowed = [workspaceDir, ...roots].map((root) => realOrSelf(resolve(workspaceDir, root)));
  if (allowed.some((root) => inside(root, target))) return target;
  throw new PathRefused(`${input} is outside the workspace and the allowed folders (tools.fsRoots). Use a path inside ${workspaceDir}.`);
}
