import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, connect } from 'node:net';
import { ClawError } from '../../protocol/index.js';
import { classifySshFailure } from './ssh-errors.js';
import type { SshTarget } from './ssh-target.js';

export interface SshOptions {
  /** Extra ssh arguments placed before the destination, e.g. ['-F', 'config']. */
  extraArgs?: string[];
  /** The ssh binary (default `ssh` from PATH, so ~/.ssh/config, agents and jump hosts apply). */
  sshPath?: string;
}

function baseArgs(target: SshTarget, options: SshOptions): string[] {
  return [...(options.extraArgs ?? []), ...(target.port !== undefined ? ['-p', String(target.port)] : [])];
}

/** Runs one command on the remote over ssh and returns its stdout; stdin stays the user's for prompts. */
export function runRemote(target: SshTarget, command: string, options: SshOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(options.sshPath ?? 'ssh', [...baseArgs(target, options), '-o', 'ServerAliveInterval=15', target.destination, command], {
      stdio: ['inherit', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', (error) => reject(new ClawError('unavailable', `Cannot run ssh: ${error.message}. Install an OpenSSH client.`)));
    child.on('close', (code) => {
      if (code === 0) resolve(stdout);
      else reject(classifySshFailure(target.label, code, stderr, command));
    });
  });
}

/** A free TCP port on loopback, chosen by the OS. */
export function freeLocalPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function portAccepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export type TunnelState = 'opening' | 'open' | 'dropped' | 'closed';

/**
 * `ssh -N -L` kept alive: if the link drops, ssh is started again on the same
 * local port (1 s doubling to 30 s), so a client that reconnects to that port
 * resumes once the link is back.
 */
export class SshTunnel {
  state: TunnelState = 'opening';
  localPort = 0;
  private child: ChildProcess | undefined;
  private closing = false;
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly listeners = new Set<(state: TunnelState, detail: string) => void>();

  constructor(
    private readonly target: SshTarget,
    private readonly remotePort: number,
    private readonly options: SshOptions & { localPort?: number } = {},
  ) {}

  onState(listener: (state: TunnelState, detail: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Opens the tunnel and resolves with the local port once it accepts connections. */
  async open(timeoutMs = 20_000): Promise<number> {
    this.localPort = this.options.localPort ?? this.localPort ?? 0;
    if (!this.localPort) this.localPort = await freeLocalPort();
    await this.spawnOnce(timeoutMs);
    return this.localPort;
  }

  close(): void {
    this.closing = true;
    clearTimeout(this.retryTimer);
    this.child?.kill('SIGTERM');
    this.setState('closed', 'closed by claw');
  }

  private setState(state: TunnelState, detail: string): void {
    this.state = state;
    for (const listener of this.listeners) listener(state, detail);
  }

  private spawnOnce(timeoutMs: number): Promise<void> {
    const args = [
      ...baseArgs(this.target, this.options),
      '-N',
      '-L',
      `127.0.0.1:${this.localPort}:127.0.0.1:${this.remotePort}`,
      '-o',
      'ExitOnForwardFailure=yes',
      '-o',
      'ServerAliveInterval=15',
      '-o',
      'ServerAliveCountMax=3',
      this.target.destination,
    ];
    const child = spawn(this.options.sshPath ?? 'ssh', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    this.child = child;
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    let exited: number | null | undefined;
    child.on('exit', (code) => {
      exited = code;
      if (this.child !== child || this.closing) return;
      if (this.state === 'open') {
        this.setState('dropped', stderr.trim().split('\n').slice(-1)[0] ?? 'ssh exited');
        this.scheduleRespawn();
      }
    });
    return new Promise<void>((resolve, reject) => {
      const deadline = Date.now() + timeoutMs;
      const poll = async (): Promise<void> => {
        if (exited !== undefined) return reject(classifySshFailure(this.target.label, exited, stderr, 'ssh -N -L'));
        if (await portAccepts(this.localPort)) {
          this.attempt = 0;
          this.setState('open', `127.0.0.1:${this.localPort} → ${this.target.label}:${this.remotePort}`);
          return resolve();
        }
        if (Date.now() > deadline) {
          child.kill('SIGTERM');
          return reject(new ClawError('timeout', `The SSH tunnel to ${this.target.label} did not open in time.`));
        }
        setTimeout(() => void poll(), 50);
      };
      void poll();
    });
  }

  private scheduleRespawn(): void {
    this.attempt += 1;
    // The first respawn is immediate (a dropped link is often back at once); then 1 s doubling to 30 s.
    const delay = this.attempt === 1 ? 0 : Math.min(30_000, 1000 * 2 ** (this.attempt - 2));
    this.retryTimer = setTimeout(() => {
      if (this.closing) return;
      this.spawnOnce(20_000).catch((error: Error) => {
        this.setState('dropped', error.message);
        this.scheduleRespawn();
      });
    }, delay);
  }
}
