import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HookManifestError, readHookSync, type HookDefinition, type HookSource } from './hook-manifest.js';

export interface HookRoots {
  workspace?: string;
  user?: string;
  bundled?: string;
}

export interface HookDiscovery {
  hooks: HookDefinition[];
  /** Folders whose HOOK.md is wrong: shown by `claw hooks check`, never loaded. */
  invalid: Array<{ dir: string; source: HookSource; error: string }>;
  /** Lower-precedence hooks hidden by one of the same name. */
  shadowed: Array<{ name: string; dir: string; by: string }>;
}

/** The top-level `hooks/` folder of the install (next to `skills/`), found from this file in source/ or dist/. */
export function bundledHooksDir(): string {
  return join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'hooks');
}

function hookFolders(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .sort()
    .map((entry) => join(root, entry))
    .filter((dir) => {
      try {
        return statSync(dir).isDirectory() && existsSync(join(dir, 'HOOK.md'));
      } catch {
        return false;
      }
    });
}

/** Workspace hooks win over the user's, the user's over the bundled ones, by name. */
export function discoverHooksSync(roots: HookRoots): HookDiscovery {
  const result: HookDiscovery = { hooks: [], invalid: [], shadowed: [] };
  const byName = new Map<string, HookDefinition>();
  const order: Array<[HookSource, string | undefined]> = [
    ['workspace', roots.workspace],
    ['user', roots.user],
    ['bundled', roots.bundled],
  ];
  for (const [source, root] of order) {
    if (!root) continue;
    for (const dir of hookFolders(root)) {
      let hook: HookDefinition;
      try {
        hook = readHookSync(dir, source);
      } catch (error) {
        if (!(error instanceof HookManifestError)) throw error;
        result.invalid.push({ dir, source, error: error.message });
        continue;
      }
      const winner = byName.get(hook.manifest.name);
      if (winner) {
        result.shadowed.push({ name: hook.manifest.name, dir, by: winner.dir });
        continue;
      }
      byName.set(hook.manifest.name, hook);
      result.hooks.push(hook);
    }
  }
  return result;
}
