import * as fs from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { promisify } from 'node:util';

/**
 * The file calls durable writers make, as one object so tests can hand in a
 * disk that fails (ENOSPC, short writes) without touching the real one.
 */
export interface FileOps {
  openSync(path: string, flags: string, mode?: number): number;
  closeSync(fd: number): void;
  fstatSync(fd: number): { size: number };
  /** Writes at the file's end (the fd is opened for append); returns the bytes written, which may be fewer than asked. */
  writeSync(fd: number, buffer: Uint8Array, offset: number, length: number): number;
  write(fd: number, buffer: Uint8Array, offset: number, length: number): Promise<number>;
  ftruncateSync(fd: number, length: number): void;
  ftruncate(fd: number, length: number): Promise<void>;
  fsyncSync(fd: number): void;
  fdatasync(fd: number): Promise<void>;
  unlinkSync(path: string): void;
  renameSync(from: string, to: string): void;
}

const writeAsync = promisify(fs.write);
const ftruncateAsync = promisify(fs.ftruncate);
const fdatasyncAsync = promisify(fs.fdatasync);

export const nodeFileOps: FileOps = {
  openSync: (path, flags, mode) => fs.openSync(path, flags, mode),
  closeSync: (fd) => fs.closeSync(fd),
  fstatSync: (fd) => fs.fstatSync(fd),
  writeSync: (fd, buffer, offset, length) => fs.writeSync(fd, buffer, offset, length),
  write: async (fd, buffer, offset, length) => (await writeAsync(fd, buffer, offset, length)).bytesWritten,
  ftruncateSync: (fd, length) => fs.ftruncateSync(fd, length),
  ftruncate: (fd, length) => ftruncateAsync(fd, length),
  fsyncSync: (fd) => fs.fsyncSync(fd),
  fdatasync: (fd) => fdatasyncAsync(fd),
  unlinkSync: (path) => fs.unlinkSync(path),
  renameSync: (from, to) => fs.renameSync(from, to),
};

/** A write that returned 0 bytes: the kernel took nothing and would take nothing again. */
function noProgress(path: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`ENOSPC: write to ${path} made no progress (0 bytes written)`);
  error.code = 'ENOSPC';
  return error;
}

/** Loops until every byte of `buffer` is written; a short write is continued, never ignored. */
export function writeFullySync(ops: FileOps, fd: number, buffer: Uint8Array, path: string): void {
  let offset = 0;
  while (offset < buffer.length) {
    const written = ops.writeSync(fd, buffer, offset, buffer.length - offset);
    if (written <= 0) throw noProgress(path);
    offset += written;
  }
}

/** Async twin of writeFullySync. */
export async function writeFully(ops: FileOps, fd: number, buffer: Uint8Array, path: string): Promise<void> {
  let offset = 0;
  while (offset < buffer.length) {
    const written = await ops.write(fd, buffer, offset, buffer.length - offset);
    if (written <= 0) throw noProgress(path);
    offset += written;
  }
}

/** The errno code of a failed write, for messages (`ENOSPC`, `EIO`, …). */
export function errorCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : String(error);
}

let tempFiles = 0;

/**
 * The pid and a count make each temp name unique: two live processes never
 * share a pid, and a dead one's leftover of the same name is only truncated
 * and reused. (Random names loaded node:crypto into the TUI for nothing.)
 */
function tempPathFor(path: string): string {
  tempFiles += 1;
  return join(dirname(path), `.${basename(path)}.${process.pid}.${tempFiles}.tmp`);
}

function fsyncDirSync(dir: string): void {
  // Directory fsync makes the rename itself durable; some filesystems refuse it.
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    /* best effort */
  }
}

/**
 * Replaces `path` with `data` so that a crash leaves either the old or the new
 * content, never a truncated file: write a sibling temp file, fsync, rename.
 */
export function writeFileAtomicSync(path: string, data: string | Uint8Array, mode = 0o600, ops: FileOps = nodeFileOps): void {
  replaceSync(path, data, mode, ops, true);
}

/**
 * writeFileAtomicSync without the fsyncs: readers still see the old content or
 * the new, but a power loss may lose both. Only for a file that describes a
 * live process (gateway.json), which that power loss makes stale anyway. An
 * fsync waits for whatever else the disk has queued: 70 ms once, on the way
 * to the gateway's first answer.
 */
export function replaceFileSync(path: string, data: string | Uint8Array, mode = 0o600): void {
  replaceSync(path, data, mode, nodeFileOps, false);
}

function replaceSync(path: string, data: string | Uint8Array, mode: number, ops: FileOps, durable: boolean): void {
  // Folders claw creates hold its state: private, like the files (0600) written into them.
  fs.mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temp = tempPathFor(path);
  const fd = ops.openSync(temp, 'w', mode);
  try {
    writeFullySync(ops, fd, typeof data === 'string' ? Buffer.from(data) : data, temp);
    if (durable) ops.fsyncSync(fd);
  } catch (error) {
    ops.closeSync(fd);
    try {
      ops.unlinkSync(temp);
    } catch {
      /* already gone */
    }
    throw error;
  }
  ops.closeSync(fd);
  ops.renameSync(temp, path);
  if (durable) fsyncDirSync(dirname(path));
}

/** Async twin of writeFileAtomicSync: the writes and the fsync happen off the event loop. */
export async function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o600, ops: FileOps = nodeFileOps): Promise<void> {
  await fs.promises.mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temp = tempPathFor(path);
  const fd = ops.openSync(temp, 'w', mode);
  try {
    await writeFully(ops, fd, typeof data === 'string' ? Buffer.from(data) : data, temp);
    await ops.fdatasync(fd);
  } catch (error) {
    ops.closeSync(fd);
    try {
      ops.unlinkSync(temp);
    } catch {
      /* already gone */
    }
    throw error;
  }
  ops.closeSync(fd);
  await fs.promises.rename(temp, path);
  try {
    const dir = await fs.promises.open(dirname(path), 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  } catch {
    /* best effort */
  }
}
