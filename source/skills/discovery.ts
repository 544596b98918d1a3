import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { FrontmatterError, parseFrontmatter } from './frontmatter.js';
import { readManifest, type SkillManifest } from './manifest.js';

/** Where a skill came from, highest precedence first. */
export const skillSources = ['workspace', 'workspace-agents', 'managed', 'personal-agents', 'bundled', 'extra'] as const;
export type SkillSource = (typeof skillSources)[number];

export interface SkillRoot {
  source: SkillSource;
  dir: string;
}

/** One SKILL.md as found on disk: parsed, or the reason it could not be. */
export type FoundSkill = {
  source: SkillSource;
  root: string;
  /** The skill folder (absolute). */
  dir: string;
  /** Its SKILL.md (absolute). */
  file: string;
  folder: string;
} & ({ ok: true; manifest: SkillManifest; body: string; warnings: string[] } | { ok: false; name?: string; reason: string });

export const MAX_SKILL_DEPTH = 4;
const MAX_SKILL_FILE_BYTES = 256 * 1024;
const SKIPPED_DIRS = new Set(['node_modules', '.git', '.hg', '.svn', '__pycache__']);

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Skill folders under `root`: any directory with a SKILL.md, down to
 * MAX_SKILL_DEPTH levels; a skill's own subfolders are not searched. Every
 * folder read goes into `visited` when given: the watcher watches exactly
 * what discovery reads.
 */
export function findSkillDirsSync(root: string, visited?: Set<string>): string[] {
  const found: string[] = [];
  // One readdir per folder: its listing says both whether it is a skill and where to go next.
  const walk = (dir: string, depth: number): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    visited?.add(dir);
    if (depth > 0 && entries.some((entry) => entry.name === 'SKILL.md' && (entry.isFile() || entry.isSymbolicLink()))) {
      found.push(dir);
      return;
    }
    if (depth >= MAX_SKILL_DEPTH) return;
    const children = entries
      .filter(
        (entry) =>
          !entry.name.startsWith('.') &&
          !SKIPPED_DIRS.has(entry.name) &&
          (entry.isDirectory() || (entry.isSymbolicLink() && isDirectory(join(dir, entry.name)))),
      )
      .map((entry) => entry.name)
      .sort();
    for (const name of children) walk(join(dir, name), depth + 1);
  };
  walk(root, 0);
  return found;
}

export function readSkillSync(root: SkillRoot, dir: string): FoundSkill {
  const file = join(dir, 'SKILL.md');
  const folder = basename(dir);
  const base = { source: root.source, root: root.dir, dir, file, folder };
  let text: string;
  try {
    const bytes = readFileSync(file);
    if (bytes.length > MAX_SKILL_FILE_BYTES)
      return {
        ...base,
        ok: false,
        reason: `SKILL.md is ${bytes.length} bytes, over the ${MAX_SKILL_FILE_BYTES}-byte limit; move details into references/ files`,
      };
    text = bytes.toString('utf8');
  } catch (error) {
    return { ...base, ok: false, reason: `SKILL.md cannot be read: ${(error as Error).message}` };
  }
  try {
    const { data, body } = parseFrontmatter(text);
    const result = readManifest(data, folder);
    if (!result.ok) return { ...base, ok: false, reason: result.reason, ...(result.name ? { name: result.name } : {}) };
    return { ...base, ok: true, manifest: result.manifest, body, warnings: result.warnings };
  } catch (error) {
    if (error instanceof FrontmatterError) return { ...base, ok: false, reason: error.message };
    throw error;
  }
}

/** Every SKILL.md under the roots, in precedence order (roots first, then path). */
export function discoverSkillsSync(roots: readonly SkillRoot[]): FoundSkill[] {
  const seen = new Set<string>();
  const found: FoundSkill[] = [];
  for (const root of roots) {
    if (seen.has(root.dir)) continue;
    seen.add(root.dir);
    for (const dir of findSkillDirsSync(root.dir)) found.push(readSkillSync(root, dir));
  }
  return found;
}
