import { closeSync, openSync, readFileSync, unlinkSync, writeSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { isProcessAlive } from '../client/index.js';

export class GatewayLockedError extends Error {
  constructor(
    readonly pid: number,
    readonly stateDir: string,
  ) {
    super(`Another claw gateway (pid ${pid}) is already running for ${stateDir}. Stop it with \`claw gateway stop\`, or use another CLAW_STATE_DIR.`);
    this.name = 'GatewayLockedError';
  }
}

/**
 * One gateway per state dir: an O_EXCL lock file holding the owner's pid. A
 * lock whose pid is dead (crash, kill -9) is stale and taken over.
 */
export function acquireStateLockSync(lockPath: string, stateDir: string): () => void {
  mkdirSync(dirname(lockPath), { recursive: true });
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          if (readFileSync(lockPath, 'utf8').trim() === String(process.pid)) unlinkSync(lockPath);
        } catch {
          /* already gone */
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let owner = NaN;
      try {
        owner = Number(readFileSync(lockPath, 'utf8').trim());
      } catch {
        /* raced with removal */
      }
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isProcessAlive(owner)) {
        throw new GatewayLockedError(owner, stateDir);
      }
      try {
        unlinkSync(lockPath);
      } catch {
        /* raced with another taker */
      }
    }
  }
  throw new Error(`Could not take the gateway lock ${lockPath}; remove it if no gateway is running.`);
}
