import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, chmodSync, readFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { freeLocalPort } from '../../source/client/index.js';

export interface TestSshd {
  port: number;
  /** An ssh_config file with a `Host claw-test` entry pointing at this sshd. */
  configFile: string;
  hostAlias: string;
  /** Kills every ssh session the server spawned (simulates the link dropping). */
  dropConnections(): void;
  stop(): Promise<void>;
}

export function sshdPath(): string | undefined {
  for (const candidate of ['/usr/sbin/sshd', '/usr/bin/sshd']) if (existsSync(candidate)) return candidate;
  return undefined;
}

function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const tryOnce = (): void => {
      const socket = connect({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        if (Date.now() > deadline) reject(new Error(`sshd did not listen on ${port}`));
        else setTimeout(tryOnce, 50);
      });
    };
    tryOnce();
  });
}

/**
 * A private sshd on 127.0.0.1 with its own host key and one authorized client
 * key, all in a temp dir: no system service, nothing outside the dir changes.
 */
export async function startTestSshd(): Promise<TestSshd> {
  const sshd = sshdPath();
  if (!sshd) throw new Error('sshd is not installed: apt-get install -y openssh-server');
  mkdirSync('/run/sshd', { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), 'claw-sshd-'));
  chmodSync(dir, 0o700);
  const keygen = (file: string): void => {
    const result = spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', file]);
    if (result.status !== 0) throw new Error(`ssh-keygen failed: ${result.stderr.toString()}`);
  };
  keygen(join(dir, 'host_key'));
  keygen(join(dir, 'client_key'));
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'client_key.pub')), { mode: 0o600 });
  const port = await freeLocalPort();
  const user = userInfo().username;
  writeFileSync(
    join(dir, 'sshd_config'),
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${join(dir, 'host_key')}`,
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      'StrictModes no',
      'UsePAM no',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PubkeyAuthentication yes',
      'PermitRootLogin prohibit-password',
      'AllowTcpForwarding yes',
      'PermitUserEnvironment no',
      'LogLevel ERROR',
      '',
    ].join('\n'),
  );
  const hostAlias = 'claw-test';
  const configFile = join(dir, 'ssh_config');
  writeFileSync(
    configFile,
    [
      `Host ${hostAlias}`,
      '  HostName 127.0.0.1',
      `  Port ${port}`,
      `  User ${user}`,
      `  IdentityFile ${join(dir, 'client_key')}`,
      '  IdentitiesOnly yes',
      '  StrictHostKeyChecking no',
      `  UserKnownHostsFile ${join(dir, 'known_hosts')}`,
      '  LogLevel ERROR',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(sshd, ['-D', '-e', '-f', join(dir, 'sshd_config')], { stdio: ['ignore', 'ignore', 'pipe'] });
  await waitForPort(port, 10_000);
  return {
    port,
    configFile,
    hostAlias,
    dropConnections() {
      // Session processes are children of the listener; killing them cuts every link.
      spawnSync('pkill', ['-KILL', '-P', String(child.pid)]);
    },
    async stop() {
      spawnSync('pkill', ['-KILL', '-P', String(child.pid)]);
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
