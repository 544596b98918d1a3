import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statfsSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '../../source/protocol/index.js';
import { InboundJournal, type AcceptInput } from '../../source/queue/index.js';
import { loadTranscriptSync, TranscriptAppender, WriteProbe } from '../../source/sessions/index.js';

/** A real 2 MiB tmpfs when this process may mount one (root on Linux); else the test is skipped. */
function mountSmallTmpfs(): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'claw-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
}

const mounted = process.platform === 'linux' && process.getuid?.() === 0 ? mountSmallTmpfs() : undefined;
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  if (mounted) {
    execFileSync('umount', [mounted]);
    rmSync(mounted, { recursive: true, force: true });
  }
});

/** Fills the filesystem until less than `leave` bytes are free. */
function fill(dir: string, leave: number): string {
  const path = join(dir, 'filler');
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(4096, 1);
  try {
    for (;;) {
      const { bavail, bsize } = statfsSync(dir);
      if (bavail * bsize <= leave) break;
      writeSync(fd, chunk);
    }
  } catch {
    /* full */
  } finally {
    closeSync(fd);
  }
  return path;
}

const input = (id: string, text = id): AcceptInput => ({
  dedupeKey: `tui\u0000${id}`,
  runId: `r-${id}`,
  messageId: id,
  sessionKey: 'agent:main:main',
  agentId: 'main',
  channel: 'tui',
  text,
  mode: 'followup',
});
const entry = (id: string, text: string): TranscriptEntry => ({
  id,
  parentId: null,
  timestamp: 1,
  type: 'message',
  role: 'assistant',
  content: [{ type: 'text', text }],
  stopReason: 'stop',
});

describe.skipIf(!mounted)('a real 2 MiB tmpfs that fills up', () => {
  it('refuses what does not fit, leaves no fragment, reports not writable, and takes writes again once space returns', async () => {
    const dir = mounted!;
    const journalPath = join(dir, 'queue', 'inbound.jsonl');
    const { journal } = await InboundJournal.open(journalPath);
    cleanups.push(() => journal.close().catch(() => undefined));
    const transcriptPath = join(dir, 't.jsonl');
    writeFileSync(transcriptPath, `${JSON.stringify({ type: 'session', version: 1, id: 't', key: 'agent:main:main', agentId: 'main', createdAt: 0 })}\n`);
    const appender = new TranscriptAppender(transcriptPath);
    cleanups.push(() => appender.close().catch(() => undefined));
    const probe = new WriteProbe({ dirs: () => [join(dir, 'queue')] });
    cleanups.push(() => probe.stop());
    await journal.accept(input('a'));
    appender.append([entry('e1', 'first')]);
    expect(await probe.check()).toEqual({ ok: true });

    const filler = fill(dir, 20_000);
    const journalSize = statSync(journalPath).size;
    const transcriptSize = statSync(transcriptPath).size;
    await expect(journal.accept(input('big', 'y'.repeat(61_000)))).rejects.toThrow(/could not be written \(ENOSPC\)/);
    expect(statSync(journalPath).size).toBe(journalSize);
    expect(() => appender.append([entry('e2', 'z'.repeat(61_000))])).toThrow(/could not be written \(ENOSPC\)/);
    expect(statSync(transcriptPath).size).toBe(transcriptSize);
    expect(await probe.check()).toMatchObject({ ok: false, reason: expect.stringMatching(/bytes free|ENOSPC/) });

    rmSync(filler);
    expect(await probe.check()).toEqual({ ok: true });
    await journal.accept(input('big2', 'y'.repeat(61_000)));
    appender.append([entry('e3', 'after')]);
    await appender.flush();
    await journal.close();
    const reopened = await InboundJournal.open(journalPath);
    cleanups.push(() => reopened.journal.close());
    expect(reopened.unfinished.map((r) => r.messageId)).toEqual(['a', 'big2']);
    expect(loadTranscriptSync(transcriptPath).entries.map((e) => e.id)).toEqual(['e1', 'e3']);
  });
});
