import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const MAX_FILES = 200;
const MAX_DEPTH = 4;

/** Files of a skill folder relative to it (scripts/, references/, assets/ …), sorted, at most MAX_FILES. */
export function listSkillFilesSync(dir: string): { files: string[]; truncated: boolean } {
  const files: string[] = [];
  let truncated = false;
  const walk = (relative: string, depth: number): void => {
    let entries;
    try {
      entries = readdirSync(join(dir, relative), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (depth < MAX_DEPTH) walk(path, depth + 1);
        continue;
      }
      if (files.length >= MAX_FILES) {
        truncated = true;
        return;
      }
      files.push(path);
    }
  };
  walk('', 1);
  return { files, truncated };
}
