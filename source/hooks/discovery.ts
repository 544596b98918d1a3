import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadYamlSync } from '../config/index.js';
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

/**
 * The user's hooks win over the bundled ones, and both over the workspace's,
 * by name: the agent can write to its workspace, so a hook it planted there
 * never takes the place of one the owner installed (it is listed as shadowed). Yields before reading each HOOK.md, so the gateway's discovery can let
 * requests through between files.
 */
function* discoverySteps(roots: HookRoots): Generator<string, HookDiscovery> {
  const result: HookDiscovery = { hooks: [], invalid: [], shadowed: [] };
  const byName = new Map<string, HookDefinition>();
  const order: Array<[HookSource, string | undefined]> = [
    ['user', roots.user],
    ['bundled', roots.bundled],
    ['workspace', roots.workspace],
  ];
  for (const [source, root] of order) {
    if (!root) continue;
    for (const dir of hookFolders(root)) {
      yield dir;
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

export function discoverHooksSync(roots: HookRoots): HookDiscovery {
  const steps = discoverySteps(roots);
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The same discovery in steps: the YAML parser loads in a turn of its own
 * (its first use costs more than all the files after it), and so does each
 * file, so a client's request waits for at most one of them.
 */
export async function discoverHooks(roots: HookRoots): Promise<HookDiscovery> {
  const steps = discoverySteps(roots);
  let step = steps.next();
  if (!step.done) {
    await nextTurn();
    loadYamlSync();
  }
  while (!step.done) {
    await nextTurn();
    step = steps.next();
  }
  return step.value;
}
