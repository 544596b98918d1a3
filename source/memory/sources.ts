import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { MemoryFile, MemoryRoots } from './types.js';

function realpathOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function isInside(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent.endsWith(sep) ? parent : parent + sep);
}

/** The real locations files may live in: MEMORY.md, memory/ and each extra path. */
export function allowedRealRoots(roots: MemoryRoots): { path: string; file: boolean }[] {
  const out: { path: string; file: boolean }[] = [];
  const add = (candidate: string) => {
    const real = realpathOrUndefined(candidate);
    if (!real) return;
    out.push({ path: real, file: statSync(real).isFile() });
  };
  add(join(roots.workspace, 'MEMORY.md'));
  add(join(roots.workspace, 'memory'));
  for (const extra of roots.extraPaths) add(extra);
  return out;
}

/** True when `absPath`, after resolving symlinks, is a markdown file inside one of the roots. */
export function isAllowedMemoryFile(absPath: string, allowed: { path: string; file: boolean }[]): string | undefined {
  const real = realpathOrUndefined(absPath);
  if (!real?.toLowerCase().endsWith('.md')) return undefined;
  const ok = allowed.some((root) => (root.file ? real === root.path : isInside(real, root.path)));
  return ok ? real : undefined;
}

export function displayPath(absPath: string, roots: MemoryRoots): { path: string; source: MemoryFile['source'] } {
  const rel = relative(resolve(roots.workspace), absPath);
  if (rel === 'MEMORY.md' || (rel.startsWith(`memory${sep}`) && !rel.startsWith('..'))) {
    return { path: rel.split(sep).join('/'), source: 'memory' };
  }
  return { path: absPath, source: 'extra' };
}

/** The absolute file a result path names: workspace-relative, or absolute for extra paths. */
export function resolveDisplayPath(path: string, roots: MemoryRoots): string {
  return isAbsolute(path) ? path : resolve(roots.workspace, path);
}

function walkMarkdown(dir: string, out: string[], seen: Set<string>): void {
  const real = realpathOrUndefined(dir);
  if (!real || seen.has(real)) return;
  seen.add(real);
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) walkMarkdown(full, out, seen);
    else if (entry.isSymbolicLink()) {
      const target = realpathOrUndefined(full);
      if (!target) continue;
      if (statSync(target).isDirectory()) walkMarkdown(full, out, seen);
      else if (entry.name.toLowerCase().endsWith('.md')) out.push(full);
    } else if (entry.isFile() && entry.name.toLowerCase().endsWith('.md')) out.push(full);
  }
}

/**
 * Every markdown file of the agent's memory, in a stable order. Symlinks are
 * followed only when their target stays inside an allowed root.
 */
export function listMemoryFiles(roots: MemoryRoots): MemoryFile[] {
  const allowed = allowedRealRoots(roots);
  const candidates: string[] = [];
  const seen = new Set<string>();
  const memoryFile = join(roots.workspace, 'MEMORY.md');
  if (existsSync(memoryFile)) candidates.push(memoryFile);
  walkMarkdown(join(roots.workspace, 'memory'), candidates, seen);
  for (const extra of roots.extraPaths) {
    const real = realpathOrUndefined(extra);
    if (!real) continue;
    if (statSync(real).isDirectory()) walkMarkdown(extra, candidates, seen);
    else candidates.push(extra);
  }
  const files = new Map<string, MemoryFile>();
  for (const candidate of candidates) {
    const absPath = resolve(candidate);
    if (!isAllowedMemoryFile(absPath, allowed)) continue;
    const { path, source } = displayPath(absPath, roots);
    if (!files.has(path)) files.set(path, { path, absPath, source });
  }
  return [...files.values()].sort((a, b) => a.path.localeCompare(b.path));
}
