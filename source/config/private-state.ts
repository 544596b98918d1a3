import { chmodSync, mkdirSync, statSync } from 'node:fs';
import type { StatePaths } from './paths.js';

function tighten(path: string, mode: number): boolean {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat || (stat.mode & 0o777 & ~mode) === 0) return false;
  chmodSync(path, mode);
  return true;
}

/**
 * Makes the state dir 0700 and claw.json, the credentials folder and the
 * approvals policy private, fixing what an older claw or a hand edit left
 * readable to others. Returns the paths it had to tighten (for doctor).
 */
export function secureStateDirSync(paths: StatePaths): string[] {
  mkdirSync(paths.root, { recursive: true, mode: 0o700 });
  const fixed: string[] = [];
  for (const [path, mode] of [
    [paths.root, 0o700],
    [paths.credentials, 0o700],
    [paths.config, 0o600],
    [paths.execApprovals, 0o600],
    [paths.gatewayInfo, 0o600],
  ] as const) {
    if (tighten(path, mode)) fixed.push(path);
  }
  return fixed;
}
