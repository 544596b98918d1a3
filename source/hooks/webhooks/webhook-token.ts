import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomicSync, type StatePaths } from '../../config/index.js';

export function webhookTokenPath(paths: StatePaths): string {
  return join(paths.credentials, 'webhook-token');
}

export function readWebhookTokenSync(paths: StatePaths): string | undefined {
  const path = webhookTokenPath(paths);
  if (!existsSync(path)) return undefined;
  if (statSync(path).mode & 0o077) chmodSync(path, 0o600);
  return readFileSync(path, 'utf8').trim() || undefined;
}

/**
 * The webhook token: its own secret, generated on first use (0600). It is
 * never the gateway token, so a leaked webhook sender cannot drive the gateway.
 */
export function ensureWebhookTokenSync(paths: StatePaths, gatewayToken?: string): string {
  const existing = readWebhookTokenSync(paths);
  if (existing && existing !== gatewayToken) return existing;
  const path = webhookTokenPath(paths);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const token = `whk_${randomBytes(32).toString('base64url')}`;
  writeFileAtomicSync(path, `${token}\n`, 0o600);
  return token;
}

export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
