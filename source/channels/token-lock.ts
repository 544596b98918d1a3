import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** Names a token without revealing it: lock and offset files are keyed by this. */
export function tokenFingerprint(token: string): string {
  return createHash('sha256').update(token).digest('hex').slice(0, 16);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface LockHolder {
  pid: number;
  owner: string;
}

/**
 * One live connection per bot token on this machine: two pollers of one
 * Telegram token end each other's polls, two Discord sockets answer every
 * message twice. The lock is a file created exclusively; a holder whose
 * process is gone (kill -9) is taken over at once.
 */
export class TokenLock {
  readonly #file: string;
  readonly #owner: string;
  #held = false;

  constructor(dir: string, token: string, owner: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.#file = join(dir, `${tokenFingerprint(token)}.lock`);
    this.#owner = owner;
  }

  get held(): boolean {
    return this.#held;
  }

  /** Takes the lock, or returns who holds it. */
  tryAcquire(): { acquired: true } | { acquired: false; holder: LockHolder } {
    for (let round = 0; round < 2; round++) {
      try {
        const fd = openSync(this.#file, 'wx', 0o600);
        writeSync(fd, JSON.stringify({ pid: process.pid, owner: this.#owner }));
        closeSync(fd);
        this.#held = true;
        return { acquired: true };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = this.holder();
      if (holder && alive(holder.pid)) return { acquired: false, holder };
      // The holder died without releasing: take over.
      try {
        unlinkSync(this.#file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    return { acquired: false, holder: this.holder() ?? { pid: 0, owner: 'unknown' } };
  }

  holder(): LockHolder | undefined {
    try {
      return JSON.parse(readFileSync(this.#file, 'utf8')) as LockHolder;
    } catch {
      // Half-written by a holder that died mid-write, or already gone: treat as free.
      return undefined;
    }
  }

  release(): void {
    if (!this.#held) return;
    this.#held = false;
    const holder = this.holder();
    if (holder?.owner !== this.#owner) return;
    try {
      unlinkSync(this.#file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}
