import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { grantPlugin, installPlugin, readManifest, type PluginPaths } from '../../source/plugins/index.js';

export const EXAMPLE_PLUGIN = join(import.meta.dirname, '..', '..', 'examples', 'plugins', 'acme-weather');

export interface FixtureManifest {
  id: string;
  version?: string;
  contributes?: Record<string, string[]>;
  permissions?: { net?: string[]; fs?: { read?: string[]; write?: string[] }; env?: string[]; secrets?: string[] };
}

/** Writes a plugin folder: its manifest and an entry module whose setup body is `setup`. */
export function writePlugin(dir: string, manifest: FixtureManifest, setup: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'claw.plugin.json'),
    JSON.stringify({ version: '1.0.0', clawApi: '^1', entry: 'index.mjs', contributes: {}, permissions: {}, ...manifest }, null, 2),
  );
  writeFileSync(join(dir, 'index.mjs'), `export default { id: ${JSON.stringify(manifest.id)}, async setup(ctx) {\n${setup}\n} };\n`);
  return dir;
}

/** Installs a plugin and grants what its manifest asks for, as `claw plugins add` then `enable --yes` do. */
export function installAndGrant(paths: PluginPaths, source: string): string {
  const { manifest } = installPlugin(paths, source);
  grantPlugin(paths, manifest.id, readManifest(paths.dir(manifest.id)).permissions, Date.now());
  return manifest.id;
}
