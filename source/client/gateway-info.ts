import { existsSync, readFileSync, unlinkSync } from 'node:fs';
import { replaceFileSync, type StatePaths } from '../config/index.js';

/** `<state>/gateway.json`: how clients find the running gateway. Never holds the token itself. */
export interface GatewayInfo {
  pid: number;
  port: number;
  bind: string;
  tokenHash: string;
  startedAt: number;
  version: string;
  epoch: string;
}

/** Checked by hand: every CLI command and the TUI read this file first, and zod would cost more than the rest of their start. */
function asGatewayInfo(value: unknown): GatewayInfo | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { pid, port, bind, tokenHash, startedAt, version, epoch } = value as Record<string, unknown>;
  if (!Number.isSafeInteger(pid) || !Number.isSafeInteger(port) || typeof startedAt !== 'number' || !Number.isFinite(startedAt)) return undefined;
  if (typeof bind !== 'string' || typeof tokenHash !== 'string' || typeof version !== 'string' || typeof epoch !== 'string') return undefined;
  return { pid: pid as number, port: port as number, bind, tokenHash, startedAt, version, epoch };
}

export function writeGatewayInfoSync(paths: StatePaths, info: GatewayInfo): void {
  replaceFileSync(paths.gatewayInfo, `${JSON.stringify(info, null, 2)}\n`, 0o600);
}

export function readGatewayInfoSync(paths: StatePaths): GatewayInfo | undefined {
  if (!existsSync(paths.gatewayInfo)) return undefined;
  try {
    return asGatewayInfo(JSON.parse(readFileSync(paths.gatewayInfo, 'utf8')));
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
