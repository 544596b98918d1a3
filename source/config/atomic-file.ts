import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { open, mkdir, rename, unlink } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';

function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

function fsyncDirSync(dir: string): void {
  // Directory fsync makes the rename itself durable; some filesystems refuse it.
  try {
    const fd = openSync(dir, 'r');
    try { fsyncSync(fd); } finally { closeSync(fd); }
  } catch { /* best effort */ }
}

/**
 * Replaces `path` with `data` so that a crash leaves either the old or the new
 * content, never a truncated file: write a sibling temp file, fsync, rename.
 */
export function writeFileAtomicSync(path: string, data: string | Uint8Array, mode = 0o600): void {
  // Folders claw creates hold its state: private, like the files (0600) written into them.
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temp = tempPathFor(path);
  const fd = openSync(temp, 'w', mode);
  try {
    writeSync(fd, typeof data === 'string' ? Buffer.from(data) : data);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    try { unlinkSync(temp); } catch { /* already gone */ }
    throw error;
  }
  closeSync(fd);
  renameSync(temp, path);
  fsyncDirSync(dirname(path));
}

/** Async twin of writeFileAtomicSync: the fsync happens off the event loop. */
export async function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o600): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temp = tempPathFor(path);
  const handle = await open(temp, 'w', mode);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await handle.close();
  await rename(temp, path);
  try {
    const dir = await open(dirname(path), 'r');
    try { await dir.sync(); } finally { await dir.close(); }
  } catch { /* best effort */ }
}
