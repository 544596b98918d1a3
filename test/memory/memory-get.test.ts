import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClawError } from '../../source/protocol/index.js';
import { memoryFixture, type MemoryFixture } from './memory-fixture.js';

let fx: MemoryFixture;
let outside: string;

beforeEach(() => {
  outside = mkdtempSync(join(tmpdir(), 'claw-outside-'));
  writeFileSync(join(outside, 'secret.md'), 'top secret\n');
  mkdirSync(join(outside, 'extra'));
  writeFileSync(join(outside, 'extra', 'runbook.md'), '# Runbook\n\nline three\nline four\n');
  fx = memoryFixture({ extraPaths: [join(outside, 'extra')] });
  fx.write('MEMORY.md', Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n'));
  fx.write('memory/2026-02-01.md', '# Feb\n\nhello\n');
  fx.write('notes-outside-memory.md', 'not memory\n');
});
afterEach(async () => {
  await fx.cleanup();
  rmSync(outside, { recursive: true, force: true });
});

function refused(run: () => unknown): void {
  let error: unknown;
  try {
    run();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ClawError);
  expect((error as ClawError).code).toBe('forbidden');
  expect((error as ClawError).message).toMatch(/not a memory file/);
}

describe('memory_get', () => {
  it('reads a line range from files inside the memory roots', () => {
    const index = fx.open();
    expect(index.get({ path: 'MEMORY.md', from: 3, lines: 2 })).toEqual({ path: 'MEMORY.md', from: 3, to: 4, totalLines: 10, text: 'line 3\nline 4' });
    expect(index.get({ path: 'memory/2026-02-01.md' }).text).toBe('# Feb\n\nhello\n');
    expect(index.get({ path: join(outside, 'extra', 'runbook.md'), from: 3, lines: 1 }).text).toBe('line three');
  });

  it('refuses paths that escape the roots, by .. or absolute path', () => {
    const index = fx.open();
    refused(() => index.get({ path: '../claw.json' }));
    refused(() => index.get({ path: 'memory/../notes-outside-memory.md' }));
    refused(() => index.get({ path: join(outside, 'secret.md') }));
    refused(() => index.get({ path: '/etc/passwd' }));
    refused(() => index.get({ path: 'memory/missing.md' }));
  });

  it('refuses symlinks that point outside the roots, in reads and in indexing', async () => {
    symlinkSync(join(outside, 'secret.md'), join(fx.workspace, 'memory', 'link.md'));
    symlinkSync(outside, join(fx.workspace, 'memory', 'linkdir'));
    const index = fx.open();
    refused(() => index.get({ path: 'memory/link.md' }));
    refused(() => index.get({ path: 'memory/linkdir/secret.md' }));
    await index.sync();
    expect((await index.search({ query: 'top secret' })).results).toEqual([]);
  });

  it('follows symlinks that stay inside the roots', () => {
    symlinkSync(join(fx.workspace, 'memory', '2026-02-01.md'), join(fx.workspace, 'memory', 'alias.md'));
    expect(fx.open().get({ path: 'memory/alias.md' }).text).toContain('hello');
  });
});
