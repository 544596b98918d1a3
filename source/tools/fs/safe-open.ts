import { closeSync, constants, fstatSync, ftruncateSync, mkdirSync, openSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import { allowedRoots, confinePath, hiddenHolder, hiddenRefusal, inside, PathRefused } from './confine.js';

/** `update` reads and rewrites an existing file in place (edit). */
export type OpenMode = 'read' | 'write' | 'append' | 'update';

const modeFlags: Record<OpenMode, number> = {
  read: constants.O_RDONLY,
  write: constants.O_WRONLY | constants.O_CREAT,
  append: constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND,
  update: constants.O_RDWR,
};

export interface ConfinedFile {
  fd: number;
  /** The real path of the opened file. */
  path: string;
}

function openedPath(fd: number, fallback: string): string {
  // The kernel's name for the open file: no later rename or link swap can change what this fd is.
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return realpathSync(fallback);
  }
}

/**
 * Opens a file inside the roots without following a link out of them: the
 * path is resolved and checked, the final component opened with O_NOFOLLOW
 * (a link swapped in after the check fails), and the opened file's real path
 * checked again, which also catches a swapped parent folder. A write refuses
 * a file with other hard links: writing through one changes a file whose
 * other names may lie anywhere. `write` truncates only after every check.
 */
export function openConfinedSync(input: string, workspaceDir: string, roots: readonly string[], mode: OpenMode, hidden: readonly string[] = []): ConfinedFile {
  const target = confinePath(input, workspaceDir, roots, hidden);
  if (mode === 'write' || mode === 'append') mkdirSync(dirname(target), { recursive: true });
  const flags = modeFlags[mode] | constants.O_NOFOLLOW;
  let fd: number;
  try {
    fd = openSync(target, flags, 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new PathRefused(`${input} became a symbolic link while it was being opened; refused.`);
    throw error;
  }
  try {
    const real = openedPath(fd, target);
    const allowed = allowedRoots(workspaceDir, roots);
    if (!allowed.some((root) => inside(root, real))) {
      throw new PathRefused(`${input} resolved to ${real}, outside the workspace and tools.fsRoots, while it was being opened; refused.`);
    }
    const holder = hiddenHolder(real, allowed, hidden);
    if (holder !== undefined) throw hiddenRefusal(input, holder);
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw Object.assign(new Error(`${input} is a directory`), { code: 'EISDIR', path: input });
    if (mode !== 'read' && stat.nlink > 1) {
      throw new PathRefused(
        `${input} has ${stat.nlink} hard links; writing would also change the other names, which may lie outside the workspace. Copy it to a new file and write that.`,
      );
    }
    if (mode === 'write') ftruncateSync(fd, 0);
    return { fd, path: real };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}
