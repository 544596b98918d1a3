import { spawn } from 'node:child_process';
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StatePaths } from '../config/index.js';
import { ClawError, type StatusPayload } from '../protocol/index.js';
import { GatewayClient } from './gateway-client.js';
import { dialHost, readGatewayInfoSync, removeGatewayInfoSync, type GatewayInfo } from './gateway-info.js';
import { readGatewayTokenSync } from '../config/index.js';
import { fetchStatus } from './http-status.js';
import { isProcessAlive } from './process-alive.js';

const cliEntry = fileURLToPath(new URL('../cli/main.js', import.meta.url));

export interface LocalGateway {
  info: GatewayInfo;
  url: string;
  token: string;
}

/** The running local gateway from `gateway.json`, if its pid is alive. */
export function findLocalGateway(paths: StatePaths): LocalGateway | undefined {
  const info = readGatewayInfoSync(paths);
  if (!info) return undefined;
  if (!isProcessAlive(info.pid)) {
    removeGatewayInfoSync(paths, info.pid);
    return undefined;
  }
  const token = readGatewayTokenSync(paths);
  if (!token) return undefined;
  return { info, url: `ws://${dialHost(info.bind)}:${info.port}`, token };
}

/**
 * node:http, not fetch: a process's first fetch loads undici, which cost the
 * TUI's start more CPU than the rest of finding and connecting to the gateway.
 */
function httpReady(info: GatewayInfo): Promise<boolean> {
  return new Promise((resolve) => {
    const req = httpGet(new URL(`http://${dialHost(info.bind)}:${info.port}/readyz`), { agent: false, timeout: 1000 }, (res) => {
      res.resume();
      const status = res.statusCode ?? 0;
      resolve(status >= 200 && status < 300);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export interface StartResult {
  started: boolean;
  gateway: LocalGateway;
}

/**
 * Starts `claw gateway run` detached (output to the log dir) and resolves once
 * `/readyz` answers. Returns the existing gateway when one is already running.
 */
export async function startGatewayDetached(paths: StatePaths, options: { port?: number; timeoutMs?: number } = {}): Promise<StartResult> {
  // Generous: a cold start on a busy 2-core box can take several seconds, and giving up leaves a gateway starting anyway.
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  const existing = findLocalGateway(paths);
  if (existing) {
    // A live gateway that is slow to answer (busy machine, still starting) is waited for, never doubled.
    while (Date.now() < deadline && findLocalGateway(paths)?.info.pid === existing.info.pid) {
      if (await httpReady(existing.info)) return { started: false, gateway: existing };
      await sleep(50);
    }
  }
  mkdirSync(paths.logs, { recursive: true, mode: 0o700 });
  const outPath = join(paths.logs, 'gateway-stdio.log');
  const out = openSync(outPath, 'a', 0o600);
  const logStart = fstatSync(out).size;
  const args = [cliEntry, 'gateway', 'run', ...(options.port !== undefined ? ['--port', String(options.port)] : [])];
  const child = spawn(process.execPath, args, {
    detached: true,
    stdio: ['ignore', out, out],
    env: { ...process.env, CLAW_STATE_DIR: paths.root },
  });
  closeSync(out);
  let exitCode: number | null = null;
  child.on('exit', (code) => {
    exitCode = code ?? 1;
  });
  child.unref();
  while (Date.now() < deadline) {
    if (exitCode !== null) {
      const reason = readFileSync(outPath).subarray(logStart).toString('utf8').trim();
      throw new ClawError(
        'unavailable',
        `The gateway exited during start (code ${exitCode})${reason ? `:\n${reason}` : `. See ${outPath} and ${paths.logs}.`}`,
      );
    }
    const found = findLocalGateway(paths);
    if (found && found.info.pid === child.pid && (await httpReady(found.info))) return { started: true, gateway: found };
    await sleep(25);
  }
  throw new ClawError('timeout', `The gateway did not become ready in time. See ${outPath}.`);
}

export async function connectLocal(paths: StatePaths, options: { reconnect?: boolean; clientName?: string } = {}): Promise<GatewayClient> {
  const gateway = findLocalGateway(paths);
  if (!gateway) throw new ClawError('unavailable', 'No gateway is running for this state dir. Start one with `claw gateway start`.');
  const client = new GatewayClient({
    url: gateway.url,
    token: gateway.token,
    reconnect: options.reconnect ?? false,
    clientName: options.clientName ?? 'claw-cli',
  });
  await client.connect();
  return client;
}

/** Asks the gateway to drain and exit; falls back to SIGTERM; waits for the pid to go. */
export async function stopGateway(paths: StatePaths, options: { timeoutMs?: number } = {}): Promise<{ stopped: boolean; pid?: number }> {
  const gateway = findLocalGateway(paths);
  if (!gateway) return { stopped: false };
  const { pid } = gateway.info;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return { stopped: true, pid };
  }
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  while (Date.now() < deadline) {
    if (!isProcessAlive(pid)) return { stopped: true, pid };
    await sleep(25);
  }
  throw new ClawError('timeout', `Gateway pid ${pid} did not exit; kill it with \`kill -9 ${pid}\` if it is wedged.`);
}

/** SIGUSR1: the gateway drains and restarts in place on the same port. */
export async function restartGateway(paths: StatePaths, options: { timeoutMs?: number } = {}): Promise<LocalGateway> {
  const gateway = findLocalGateway(paths);
  if (!gateway) return (await startGatewayDetached(paths)).gateway;
  const before = gateway.info.epoch;
  process.kill(gateway.info.pid, 'SIGUSR1');
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  while (Date.now() < deadline) {
    const found = findLocalGateway(paths);
    if (found && found.info.epoch !== before && (await httpReady(found.info))) return found;
    await sleep(25);
  }
  throw new ClawError('timeout', 'The gateway did not come back after restart; see its log.');
}

export type GatewayStatus =
  | { running: false }
  | { running: true; source: 'rpc'; status: StatusPayload }
  | { running: true; source: 'pidfile'; info: GatewayInfo; error: string };

/** Status from the gateway itself, falling back to the pid file when it does not answer. */
export async function gatewayStatus(paths: StatePaths): Promise<GatewayStatus> {
  const gateway = findLocalGateway(paths);
  if (!gateway) return { running: false };
  try {
    return { running: true, source: 'rpc', status: await fetchStatus(gateway.info, gateway.token, 3000) };
  } catch (error) {
    return { running: true, source: 'pidfile', info: gateway.info, error: (error as Error).message };
  }
}
