import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomicSync } from './atomic-file.js';
import type { StatePaths } from './paths.js';

/**
 * The gateway token a local client presents: CLAW_GATEWAY_TOKEN when set,
 * otherwise the one the gateway stored in the state dir (tightened to 0600).
 */
export function readGatewayTokenSync(paths: StatePaths, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const fromEnv = env.CLAW_GATEWAY_TOKEN?.trim();
  if (fromEnv) return fromEnv;
  if (!existsSync(paths.gatewayToken)) return undefined;
  const mode = statSync(paths.gatewayToken).mode & 0o777;
  if (mode & 0o077) chmodSync(paths.gatewayToken, 0o600);
  const token = readFileSync(paths.gatewayToken, 'utf8').trim();
  return token || undefined;
}

/**
 * The gateway token: CLAW_GATEWAY_TOKEN when set, otherwise the one stored in
 * the state dir, generated (0600, in a 0700 folder) on first use.
 */
export function ensureGatewayTokenSync(paths: StatePaths, env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.CLAW_GATEWAY_TOKEN?.trim();
  if (fromEnv) return fromEnv;
  const existing = readGatewayTokenSync(paths);
  if (existing) return existing;
  mkdirSync(dirname(paths.gatewayToken), { recursive: true, mode: 0o700 });
  chmodSync(dirname(paths.gatewayToken), 0o700);
  const token = randomBytes(32).toString('base64url');
  writeFileAtomicSync(paths.gatewayToken, `${token}\n`, 0o600);
  return token;
}
