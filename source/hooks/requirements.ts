import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { HookManifest } from './hook-manifest.js';

function onPath(bin: string, path: string | undefined): boolean {
  for (const dir of (path ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, bin), constants.X_OK);
      return true;
    } catch {
      // not in this folder
    }
  }
  return false;
}

/** What keeps a hook from running here, each in words the operator can act on; empty when it may run. */
export function unmetRequirements(manifest: HookManifest, env: Readonly<Record<string, string | undefined>>, platform: string = process.platform): string[] {
  const unmet: string[] = [];
  const { bins, env: names, os } = manifest.requires;
  if (os.length > 0 && !os.includes(platform)) unmet.push(`runs only on ${os.join(', ')} (this is ${platform})`);
  for (const bin of bins) if (!onPath(bin, env.PATH)) unmet.push(`needs "${bin}" on PATH`);
  for (const name of names) if (!env[name]) unmet.push(`needs ${name}: set it in hooks.entries.${manifest.name}.env`);
  return unmet;
}
