import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GatewayClient, readGatewayInfoSync } from '../../source/client/index.js';
import { openConnected, waitFor } from '../gateway/raw-client.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { assertBuilt, descendantsOf, isAlive, readyz, runClaw, runClawOk, spawnGatewayRun } from './cli-process.js';

let state: TempState;
const pids = new Set<number>();

// Each test spawns several real node processes; on a loaded 2-core machine that takes a while.
const slow = { timeout: 180_000 };

beforeAll(assertBuilt);

beforeEach(() => {
  state = makeTempState();
});

afterEach(async () => {
  const info = readGatewayInfoSync(state.paths);
  if (info) pids.add(info.pid);
  for (const pid of pids) {
    if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    await waitFor(() => !isAlive(pid), `pid ${pid} to exit`);
  }
  pids.clear();
  state.cleanup();
});

function logText(): string {
  return readdirSync(state.paths.logs)
    .filter((name) => /^gateway-\d{4}-\d{2}-\d{2}\.log$/.test(name))
    .map((name) => readFileSync(`${state.paths.logs}/${name}`, 'utf8'))
    .join('');
}

describe('claw gateway start/status/stop', () => {
  it('starts detached, answers status over RPC, refuses a second gateway, stops cleanly', slow, async () => {
    const started = await runClawOk(['gateway', 'start', '--port', '0'], state.env);
    expect(started.stderr).toBe('');
    expect(started.code).toBe(0);
    const match = /^started: ws:\/\/127\.0\.0\.1:(\d+) \(pid (\d+)\)$/m.exec(started.stdout);
    expect(match).not.toBeNull();
    const port = Number(match![1]);
    const pid = Number(match![2]);
    pids.add(pid);
    // `start` returns only once the gateway is ready.
    expect(await readyz(port)).toBe(200);

    expect(statSync(state.paths.gatewayToken).mode & 0o777).toBe(0o600);
    expect(statSync(state.paths.credentials).mode & 0o777).toBe(0o700);
    expect(statSync(state.paths.gatewayInfo).mode & 0o777).toBe(0o600);
    const token = readFileSync(state.paths.gatewayToken, 'utf8').trim();
    expect(readFileSync(state.paths.gatewayInfo, 'utf8')).not.toContain(token);

    const status = await runClawOk(['status'], state.env);
    expect(status.stdout).toContain('gateway: running');
    expect(status.stdout).toContain(`pid      ${pid}`);
    expect(status.stdout).toContain(`ws://127.0.0.1:${port}`);
    const json = JSON.parse((await runClawOk(['gateway', 'status', '--json'], state.env)).stdout) as {
      running: boolean;
      source: string;
      status: { pid: number; port: number; stateDir: string };
    };
    expect(json).toMatchObject({ running: true, source: 'rpc', status: { pid, port, stateDir: state.dir } });
    expect((await runClawOk(['gateway', 'token'], state.env)).stdout.trim()).toBe(token);

    const again = await runClawOk(['gateway', 'start', '--port', '0'], state.env);
    expect(again.stdout).toContain(`already running: ws://127.0.0.1:${port} (pid ${pid})`);

    const second = spawnGatewayRun(state.env);
    const secondExit = await second.exited;
    expect(secondExit.code).not.toBe(0);
    expect(second.output()).toContain(`Another claw gateway (pid ${pid}) is already running for ${state.dir}`);
    expect(isAlive(pid)).toBe(true);
    expect(await readyz(port)).toBe(200);

    const stopped = await runClaw(['gateway', 'stop'], state.env);
    expect(stopped).toMatchObject({ code: 0, stdout: `stopped (pid ${pid})\n` });
    expect(isAlive(pid)).toBe(false);
    expect(existsSync(state.paths.gatewayInfo)).toBe(false);
    expect(existsSync(state.paths.gatewayLock)).toBe(false);

    const after = await runClaw(['status'], state.env);
    expect(after.code).toBe(3);
    expect(after.stdout).toContain('gateway: not running');
    expect(logText()).not.toContain(token);
  });

  it('takes over a stale lock and pid file left by a dead gateway', slow, async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    await waitFor(() => !isAlive(dead), 'the throwaway process to exit');
    writeFileSync(state.paths.gatewayLock, String(dead));
    writeFileSync(state.paths.gatewayInfo, JSON.stringify({ pid: dead, port: 1, bind: '127.0.0.1', tokenHash: 'x', startedAt: 0, version: '0', epoch: 'old' }));
    const before = await runClaw(['status'], state.env);
    expect(before.code).toBe(3);
    const started = await runClawOk(['gateway', 'start', '--port', '0'], state.env);
    expect(started.code).toBe(0);
    const info = readGatewayInfoSync(state.paths)!;
    pids.add(info.pid);
    expect(info.pid).not.toBe(dead);
    expect(readFileSync(state.paths.gatewayLock, 'utf8').trim()).toBe(String(info.pid));
    expect(await readyz(info.port)).toBe(200);
  });
});

describe('claw gateway run', () => {
  it('exits 0 on SIGTERM, leaving no processes, no gateway.json and a redacted log', slow, async () => {
    const run = spawnGatewayRun(state.env);
    pids.add(run.child.pid!);
    await waitFor(() => readGatewayInfoSync(state.paths)?.pid === run.child.pid, 'gateway.json from the child');
    const info = readGatewayInfoSync(state.paths)!;
    expect(await readyz(info.port)).toBe(200);
    const children = descendantsOf(run.child.pid!);
    run.child.kill('SIGTERM');
    expect(await run.exited).toEqual({ code: 0, signal: null });
    for (const pid of children) expect(isAlive(pid)).toBe(false);
    expect(existsSync(state.paths.gatewayInfo)).toBe(false);
    expect(existsSync(state.paths.gatewayLock)).toBe(false);
    const log = logText();
    expect(log).toContain(`gateway listening on 127.0.0.1:${info.port}`);
    expect(log).toContain('gateway exited (SIGTERM)');
    expect(log).not.toContain(readFileSync(state.paths.gatewayToken, 'utf8').trim());
  });

  it('restarts in place on SIGUSR1: same pid and port, new epoch', slow, async () => {
    const started = await runClawOk(['gateway', 'start', '--port', '0'], state.env);
    expect(started.code).toBe(0);
    const before = readGatewayInfoSync(state.paths)!;
    pids.add(before.pid);
    const restarted = await runClawOk(['gateway', 'restart'], state.env);
    expect(restarted.stderr).toBe('');
    expect(restarted.stdout).toContain(`restarted: ws://127.0.0.1:${before.port} (pid ${before.pid})`);
    const after = readGatewayInfoSync(state.paths)!;
    expect(after).toMatchObject({ pid: before.pid, port: before.port });
    expect(after.epoch).not.toBe(before.epoch);
    expect(await readyz(after.port)).toBe(200);
    const status = JSON.parse((await runClawOk(['status', '--json'], state.env)).stdout) as { status: { epoch: string } };
    expect(status.status.epoch).toBe(after.epoch);
    expect(logText()).toContain('restarting in place: SIGUSR1');
  });

  it('restarts with two clients attached: both are told, both reconnect by themselves to the new epoch', slow, async () => {
    await runClawOk(['gateway', 'start', '--port', '0'], state.env);
    const before = readGatewayInfoSync(state.paths)!;
    pids.add(before.pid);
    const token = readFileSync(state.paths.gatewayToken, 'utf8').trim();
    const clients = [
      new GatewayClient({ url: `ws://127.0.0.1:${before.port}`, token, clientName: 'tui', reconnect: true }),
      new GatewayClient({ url: `ws://127.0.0.1:${before.port}`, token, clientName: 'operator', reconnect: true }),
    ];
    try {
      const epochs: string[][] = [[], []];
      clients.forEach((client, i) => client.onHello((hello) => epochs[i]!.push(hello.server.epoch)));
      await Promise.all(clients.map((client) => client.connect()));
      // A third client that stops reading (a stuck or suspended process) never answers the close handshake.
      const { raw } = await openConnected(`ws://127.0.0.1:${before.port}`, token);
      (raw.ws as unknown as { _socket: { pause(): void } })._socket.pause();
      const started = Date.now();
      const restarted = await runClaw(['gateway', 'restart'], state.env);
      expect(restarted.stderr).toBe('');
      expect(restarted.code).toBe(0);
      expect(Date.now() - started).toBeLessThan(15_000);
      const after = readGatewayInfoSync(state.paths)!;
      expect(after.epoch).not.toBe(before.epoch);
      await waitFor(() => epochs.every((seen) => seen.includes(after.epoch)), 'both clients back on the new epoch');
      expect((await clients[0]!.request('status', {})).epoch).toBe(after.epoch);
    } finally {
      for (const client of clients) client.close();
    }
  });
});
