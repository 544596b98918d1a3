import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package root: two folders up from source/config, from dist/config, and
 * from the bundle's dist/chunks, which the build keeps at that depth for this.
 */
export const PACKAGE_ROOT = fileURLToPath(new URL('../..', import.meta.url));

function readVersion(): string {
  const manifest = join(PACKAGE_ROOT, 'package.json');
  try {
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

export const CLAW_VERSION = readVersion();
