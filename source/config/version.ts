import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

function readVersion(): string {
  // source/config or dist/config → the package root is two levels up.
  const manifest = fileURLToPath(new URL('../../package.json', import.meta.url));
  try {
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

export const CLAW_VERSION = readVersion();
