import { existsSync, readFileSync, unlinkSync } from 'node:fs';
import { z } from 'zod';
import { writeFileAtomicSync, type StatePaths } from '../config/index.js';

/** `<state>/gateway.json`: how clients find the running gateway. Never holds the token itself. */
export const gatewayInfo = z.object({
  pid: z.number().int(),
  port: z.number().int(),
  bind: z.string(),
  tokenHash: z.string(),
  startedAt: z.number(),
  version: z.string(),
  epoch: z.string(),
});
export type GatewayInfo = z.infer<typeof gatewayInfo>;

export function writeGatewayInfoSync(paths: StatePaths, info: GatewayInfo): void {
  writeFileAtomicSync(paths.gatewayInfo, `${JSON.stringify(info, null, 2)}\n`, 0o600);
}

export function readGatewayInfoSync(paths: StatePaths): GatewayInfo | undefined {
  if (!existsSync(paths.gatewayInfo)) return undefined;
  try {
    const parsed = gatewayInfo.safeParse(JSON.parse(readFileSync(paths.gatewayInfo, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function removeGatewayInfoSync(paths: StatePaths, pid = process.pid): void {
  const info = readGatewayInfoSync(paths);
  if (info && info.pid !== pid) return;
  try {
    unlinkSync(paths.gatewayInfo);
  } catch {
    /* already gone */
  }
}

/** The address a local client should dial for a gateway bound to `bind`. */
export function dialHost(bind: string): string {
  if (bind === '0.0.0.0' || bind === '') return '127.0.0.1';
  if (bind === '::') return '[::1]';
  return bind.includes(':') ? `[${bind}]` : bind;
}
