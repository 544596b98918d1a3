import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolRegistry, createFsTools, type ToolContext, type ToolDefinition } from '../../source/tools/index.js';

let base: string;
let registry: ToolRegistry;
let context: ToolContext;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'claw-fs-'));
  mkdirSync(join(base, 'ws'));
  mkdirSync(join(base, 'outside'));
  writeFileSync(join(base, 'outside', 'secret.txt'), 'secret');
  symlinkSync(join(base, 'outside'), join(base, 'ws', 'escape'));
  registry = new ToolRegistry();
  for (const tool of createFsTools({ roots: [], maxReadBytes: 1024 })) registry.register(tool as ToolDefinition);
  context = {
    agentId: 'main',
    sessionKey: 'agent:main:main',
    sessionType: 'main',
    workspaceDir: join(base, 'ws'),
    signal: new AbortController().signal,
    onUpdate: () => undefined,
    approvals: { request: async () => ({ id: 'x', approved: false, status: 'denied' }), approvedForSession: () => false },
  };
});

afterEach(() => rmSync(base, { recursive: true, force: true }));

/** A read result's text inside its untrusted fence. */
function fenced(content: string): string {
  const match = /^<untrusted_content nonce="([0-9a-f]+)"[^>]*>\n([\s\S]*)\n<\/untrusted_content nonce="\1">$/.exec(content);
  if (!match) throw new Error(`not a fenced read result: ${content.slice(0, 200)}`);
  return match[2]!;
}

describe('fs tools', () => {
  it('reads line ranges, writes and edits inside the workspace', async () => {
    expect((await registry.invoke('write', { path: 'a/b.txt', content: 'one\ntwo\nthree\ntwo' }, context)).isError).toBe(false);
    expect(fenced((await registry.invoke('read', { path: 'a/b.txt', from: 2, to: 3 }, context)).content)).toBe('two\nthree');
    expect((await registry.invoke('edit', { path: 'a/b.txt', oldText: 'two', newText: '2' }, context)).content).toContain('more than once');
    expect((await registry.invoke('edit', { path: 'a/b.txt', oldText: 'four', newText: '4' }, context)).content).toContain('not found');
    expect((await registry.invoke('edit', { path: 'a/b.txt', oldText: 'three', newText: '3' }, context)).isError).toBe(false);
    expect(readFileSync(join(base, 'ws', 'a', 'b.txt'), 'utf8')).toBe('one\ntwo\n3\ntwo');
  });

  it.each(['../outside/secret.txt', 'escape/secret.txt', join('..', '..', 'etc', 'passwd')])('refuses %s', async (path) => {
    const result = await registry.invoke('read', { path }, context);
    expect(result.isError).toBe(true);
    expect(result.content).toContain('outside the workspace');
  });

  it('refuses writing a new file through a symlink that escapes', async () => {
    const result = await registry.invoke('write', { path: 'escape/new/planted.txt', content: 'x' }, context);
    expect(result.content).toContain('outside the workspace');
    expect(existsSync(join(base, 'outside', 'new'))).toBe(false);
  });

  it('allows configured roots and refuses binary and oversized files', async () => {
    const withRoot = new ToolRegistry();
    for (const tool of createFsTools({ roots: [join(base, 'outside')], maxReadBytes: 1024 })) withRoot.register(tool as ToolDefinition);
    expect(fenced((await withRoot.invoke('read', { path: 'escape/secret.txt' }, context)).content)).toBe('secret');
    writeFileSync(join(base, 'ws', 'bin'), Buffer.from([1, 0, 2]));
    expect((await registry.invoke('read', { path: 'bin' }, context)).content).toContain('binary');
    writeFileSync(join(base, 'ws', 'big'), 'x'.repeat(5000));
    expect((await registry.invoke('read', { path: 'big' }, context)).content).toContain('read cap');
  });
});

describe('fs tools against links planted in the workspace', () => {
  it('refuses a dangling symlink for write, edit and read, and never creates its target', async () => {
    symlinkSync(join(base, 'outside', 'planted.txt'), join(base, 'ws', 'dangling'));
    for (const [tool, args] of [
      ['write', { content: 'x' }],
      ['edit', { oldText: 'a', newText: 'b' }],
      ['read', {}],
    ] as const) {
      const result = await registry.invoke(tool, { path: 'dangling', ...args }, context);
      expect(result.isError, tool).toBe(true);
      expect(result.content, tool).toContain('symbolic link to a missing file');
    }
    expect(existsSync(join(base, 'outside', 'planted.txt'))).toBe(false);
  });

  it('refuses to write through a hard link to a file outside, but reads it', async () => {
    const { linkSync } = await import('node:fs');
    linkSync(join(base, 'outside', 'secret.txt'), join(base, 'ws', 'hard.txt'));
    expect((await registry.invoke('write', { path: 'hard.txt', content: 'pwned' }, context)).content).toContain('2 hard links');
    expect((await registry.invoke('edit', { path: 'hard.txt', oldText: 'secret', newText: 'pwned' }, context)).content).toContain('2 hard links');
    expect(readFileSync(join(base, 'outside', 'secret.txt'), 'utf8')).toBe('secret');
  });
});
