import { nodeFileOps, type FileOps } from '../../source/config/index.js';

/**
 * How the disk behaves for the next writes:
 * - `ok`: the real disk;
 * - `full`: every write fails with ENOSPC, writing nothing;
 * - `short`: a write takes half of what it is given (really written), then the
 *   next write fails with ENOSPC, as a disk filling up mid-line does;
 * - `trickle`: every write takes at most 7 bytes and succeeds (a slow pipe).
 */
export type DiskMode = 'ok' | 'full' | 'short' | 'trickle';

export interface FailingDisk extends FileOps {
  mode: DiskMode;
  /** Writes refused so far. */
  refused: number;
}

function enospc(): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error('ENOSPC: no space left on device, write');
  error.code = 'ENOSPC';
  error.errno = -28;
  return error;
}

/** The real file calls, with writes that fail the way a full disk makes them fail. */
export function failingDisk(): FailingDisk {
  let halfDone = false;
  const plan = (length: number): number => {
    switch (disk.mode) {
      case 'ok':
        return length;
      case 'full':
        disk.refused += 1;
        throw enospc();
      case 'trickle':
        return Math.min(7, length);
      case 'short':
        if (halfDone || length < 2) {
          disk.refused += 1;
          throw enospc();
        }
        halfDone = true;
        return Math.floor(length / 2);
    }
  };
  const disk: FailingDisk = {
    ...nodeFileOps,
    mode: 'ok',
    refused: 0,
    writeSync(fd, buffer, offset, length) {
      return nodeFileOps.writeSync(fd, buffer, offset, plan(length));
    },
    async write(fd, buffer, offset, length) {
      return nodeFileOps.write(fd, buffer, offset, plan(length));
    },
  };
  const setMode = (mode: DiskMode): void => {
    halfDone = false;
    current = mode;
  };
  let current: DiskMode = 'ok';
  Object.defineProperty(disk, 'mode', { get: () => current, set: setMode, enumerable: true });
  return disk;
}
