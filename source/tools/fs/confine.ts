import { lstatSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

export class PathRefused extends Error {}

/** The real path of what exists, else the path as given (a file about to be created). */
export function realOrSelf(path: string): string {
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
      // A link whose target is missing would be followed by the write that creates the target, wherever it points.
      if (lstatSync(current, { throwIfNoEntry: false })?.isSymbolicLink())
        throw new PathRefused(`${current} is a symbolic link to a missing file; writing through it could land anywhere. Remove the link or use another path.`);
      const parent = dirname(current);
      if (parent === current) return path;
      missing.push(basename(current));
      current = parent;
    }
  }
}

export function inside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && !rel.startsWith(`..${sep}`));
}

/**
 * Resolves a tool's path argument to the real file it names and refuses it
 * unless it lies inside the workspace or a configured root. Symlinks are
 * followed before the check, so a link pointing out is refused, and so is a
 * not-yet-existing file under such a link or a dangling link. The check alone
 * races a link swapped in afterwards: file access goes through safe-open.
 */
export function allowedRoots(workspaceDir: string, roots: readonly string[]): string[] {
  return [workspaceDir, ...roots].map((root) => realOrSelf(resolve(workspaceDir, root)));
}

/**
 * The hidden path (the state dir, a secret path: what the exec sandbox hides)
 * that covers `target` although a root holds it, or undefined. Only a root
 * that lies inside a hidden path opens what is under it: the workspace inside
 * the state dir, not the home folder or the state dir listed in tools.fsRoots.
 * Otherwise the model could edit claw's config, hooks or compiled code, which
 * run outside the sandbox, or read the credentials.
 */
export function hiddenHolder(target: string, allowed: readonly string[], hidden: readonly string[]): string | undefined {
  for (const path of hidden) {
    const holder = realOrSelf(resolve(path));
    if (inside(holder, target) && !allowed.some((root) => root !== holder && inside(holder, root) && inside(root, target))) return holder;
  }
  return undefined;
}

export function hiddenRefusal(input: string, holder: string): PathRefused {
  return new PathRefused(
    `${input} is inside ${holder}, which tools may not open (claw's state dir or a path in tools.exec.sandbox.hiddenPaths); only a workspace or root inside it is reachable.`,
  );
}

export function confinePath(input: string, workspaceDir: string, roots: readonly string[], hidden: readonly string[] = []): string {
  const target = realpathAllowMissing(resolve(workspaceDir, input));
  const allowed = allowedRoots(workspaceDir, roots);
  if (!allowed.some((root) => inside(root, target)))
    throw new PathRefused(`${input} is outside the workspace and the allowed folders (tools.fsRoots). Use a path inside ${workspaceDir}.`);
  const holder = hiddenHolder(target, allowed, hidden);
  if (holder !== undefined) throw hiddenRefusal(input, holder);
  return target;
}
