import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

/**
 * Finds the file an argv[0] names, the way execvp would, so rules compare
 * the path that actually runs rather than the bare name. Returns undefined
 * when nothing executable is found.
 */
export function resolveExecutable(command: string, cwd: string, pathVar: string | undefined): string | undefined {
  const candidates = command.includes('/')
    ? [isAbsolute(command) ? command : resolve(cwd, command)]
    : (pathVar ?? '')
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(isAbsolute(dir) ? dir : resolve(cwd, dir), command));
  for (const candidate of candidates) {
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  return undefined;
}
