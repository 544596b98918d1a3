import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolRegistry, createFsTools, type ToolContext, type ToolDefinition, type ToolResult } from '../../source/tools/index.js';

let base: string;
let ws: string;
let registry: ToolRegistry;
let context: ToolContext;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'claw-patch-'));
  ws = join(base, 'ws');
  mkdirSync(ws);
  mkdirSync(join(base, 'outside'));
  symlinkSync(join(base, 'outside'), join(ws, 'escape'));
  registry = new ToolRegistry();
  for (const tool of createFsTools({ roots: [], maxReadBytes: 1 << 20 })) registry.register(tool as ToolDefinition);
  context = {
    agentId: 'main',
    sessionKey: 'agent:main:main',
    sessionType: 'main',
    workspaceDir: ws,
    signal: new AbortController().signal,
    onUpdate: () => undefined,
    approvals: { request: async () => ({ id: 'x', approved: false, status: 'denied' }), approvedForSession: () => false },
  };
});

afterEach(() => rmSync(base, { recursive: true, force: true }));

const file = (path: string) => readFileSync(join(ws, path), 'utf8');
const put = (path: string, text: string) => {
  mkdirSync(join(ws, path, '..'), { recursive: true });
  writeFileSync(join(ws, path), text);
};
const patch = (...body: string[]): Promise<ToolResult> =>
  registry.invoke('apply_patch', { patch: ['*** Begin Patch', ...body, '*** End Patch'].join('\n') }, context);

/** Every file under the workspace with its content, to prove nothing changed. */
function snapshot(dir = ws): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out[join(entry.parentPath, entry.name)] = readFileSync(join(entry.parentPath, entry.name), 'utf8');
  }
  return out;
}

describe('apply_patch', () => {
  it('adds a file, creating its folders', async () => {
    const result = await patch('*** Add File: src/new.ts', '+export const a = 1;', '+', '+// end');
    expect(result).toMatchObject({ isError: false, details: { added: ['src/new.ts'], updated: [], deleted: [], moved: [] } });
    expect(file('src/new.ts')).toBe('export const a = 1;\n\n// end\n');
  });

  it('updates with several hunks in order, each after the previous, and keeps the file mode', async () => {
    put('a.txt', 'one\ntwo\nthree\nfour\nfive\nsix\ntwo\nseven\n');
    chmodSync(join(ws, 'a.txt'), 0o755);
    const result = await patch('*** Update File: a.txt', '@@', ' one', '-two', '+TWO', ' three', '@@ six', '-two', '+2', ' seven');
    expect(result.isError).toBe(false);
    expect(result.details).toMatchObject({ updated: ['a.txt'] });
    expect(file('a.txt')).toBe('one\nTWO\nthree\nfour\nfive\nsix\n2\nseven\n');
    expect(statSync(join(ws, 'a.txt')).mode & 0o777).toBe(0o755);
  });

  it('matches lines that differ only in trailing whitespace, ignores unified line ranges, honours End of File', async () => {
    put('b.txt', 'alpha  \nbeta\nend\nalpha\nend\n');
    const result = await patch('*** Update File: b.txt', '@@ -1,2 +1,2 @@', ' alpha', '-beta', '+BETA', '@@', ' alpha', '-end', '+END', '*** End of File');
    expect(result.isError).toBe(false);
    expect(file('b.txt')).toBe('alpha  \nBETA\nend\nalpha\nEND\n');
  });

  it('inserts after an @@ line, appends without one, and tolerates a blank line between file sections', async () => {
    put('c.txt', 'function a() {\n}\nfunction b() {\n}\n');
    put('d.txt', 'last\n');
    const result = await patch('*** Update File: c.txt', '@@ function b() {', '+  return 1;', '', '*** Update File: d.txt', '@@', ' last', '+appended', '');
    expect(result.isError).toBe(false);
    expect(file('c.txt')).toBe('function a() {\n}\nfunction b() {\n  return 1;\n}\n');
    expect(file('d.txt')).toBe('last\nappended\n');
  });

  it('deletes a file', async () => {
    put('gone.txt', 'bye\n');
    const result = await patch('*** Delete File: gone.txt');
    expect(result.details).toMatchObject({ deleted: ['gone.txt'] });
    expect(existsSync(join(ws, 'gone.txt'))).toBe(false);
  });

  it('moves a file with edits, and moves without hunks', async () => {
    put('old/name.txt', 'keep\nchange\n');
    put('plain.txt', 'same\n');
    const result = await patch(
      '*** Update File: old/name.txt',
      '*** Move to: new/name.txt',
      '@@',
      ' keep',
      '-change',
      '+changed',
      '*** Update File: plain.txt',
      '*** Move to: renamed.txt',
    );
    expect(result.isError).toBe(false);
    expect(result.details).toMatchObject({
      moved: [
        { from: 'old/name.txt', to: 'new/name.txt' },
        { from: 'plain.txt', to: 'renamed.txt' },
      ],
    });
    expect(existsSync(join(ws, 'old/name.txt'))).toBe(false);
    expect(file('new/name.txt')).toBe('keep\nchanged\n');
    expect(existsSync(join(ws, 'plain.txt'))).toBe(false);
    expect(file('renamed.txt')).toBe('same\n');
  });

  it('applies several files in one patch and reports each', async () => {
    put('u.txt', 'x\ny\n');
    put('d.txt', 'doomed\n');
    const result = await patch('*** Add File: n.txt', '+new', '*** Update File: u.txt', '@@', '-x', '+X', ' y', '*** Delete File: d.txt');
    expect(result.content).toBe('Applied the patch:\nA n.txt\nM u.txt\nD d.txt');
    expect(file('n.txt')).toBe('new\n');
    expect(file('u.txt')).toBe('X\ny\n');
    expect(existsSync(join(ws, 'd.txt'))).toBe(false);
  });

  it('writes nothing when a hunk of the second file does not apply, and names file, hunk and lines', async () => {
    put('first.txt', 'a\nb\nc\n');
    put('second.txt', 'p\nq\nr\n');
    const before = snapshot();
    const result = await patch(
      '*** Update File: first.txt',
      '@@',
      ' a',
      '-b',
      '+B',
      '*** Add File: third.txt',
      '+t',
      '*** Update File: second.txt',
      '@@',
      ' p',
      '-q',
      '+Q',
      '@@ r',
      ' r',
      '-s',
      '+S',
    );
    expect(result.isError).toBe(true);
    expect(result.content).toContain('nothing was written');
    expect(result.content).toContain('second.txt: hunk 2 (@@ r)');
    expect(snapshot()).toEqual(before);
    const miss = await patch('*** Update File: second.txt', '@@', ' p', '-z', '+Z');
    expect(miss.content).toContain('hunk 1 did not match');
    expect(miss.content).toContain(' p\n  -z');
    expect(miss.content).toContain('then the hunk expects "z" but the file has "q"');
    expect(snapshot()).toEqual(before);
  });

  it.each([
    ['..', '*** Add File: ../outside/planted.txt'],
    ['a symlink', '*** Add File: escape/planted.txt'],
    ['a move target through a symlink', '*** Update File: inside.txt\n*** Move to: escape/moved.txt'],
  ])('refuses a path escaping the workspace through %s, writing nothing', async (_, header) => {
    put('inside.txt', 'in\n');
    const before = snapshot();
    const result = await patch('*** Add File: ok.txt', '+fine', ...header.split('\n'), ...(header.startsWith('*** Add') ? ['+x'] : []));
    expect(result.isError).toBe(true);
    expect(result.content).toContain('outside the workspace');
    expect(snapshot()).toEqual(before);
    expect(readdirSync(join(base, 'outside'))).toEqual([]);
  });

  it('refuses to move onto an existing file', async () => {
    put('from.txt', 'a\n');
    put('to.txt', 'b\n');
    const result = await patch('*** Update File: from.txt', '*** Move to: to.txt', '@@', '-a', '+A');
    expect(result.content).toContain('cannot move onto to.txt: it already exists');
    expect(file('from.txt')).toBe('a\n');
    expect(file('to.txt')).toBe('b\n');
  });

  it('keeps CRLF line endings of the file it updates', async () => {
    put('win.txt', 'one\r\ntwo\r\nthree\r\n');
    const result = await patch('*** Update File: win.txt', '@@', ' one', '-two', '+TWO', '+two and a half', ' three');
    expect(result.isError).toBe(false);
    expect(file('win.txt')).toBe('one\r\nTWO\r\ntwo and a half\r\nthree\r\n');
  });

  it('refuses adding over an existing file, deleting a missing one, and malformed patches', async () => {
    put('here.txt', 'x\n');
    expect((await patch('*** Add File: here.txt', '+y')).content).toContain('here.txt: already exists');
    expect((await patch('*** Delete File: nowhere.txt')).content).toContain('nowhere.txt: does not exist');
    expect((await registry.invoke('apply_patch', { patch: '*** Update File: here.txt' }, context)).content).toContain('must start with "*** Begin Patch"');
    expect((await patch('*** Add File: bad.txt', 'no plus')).content).toContain('Line 3');
    expect((await registry.invoke('apply_patch', {}, context)).content).toContain('Invalid arguments for apply_patch');
    expect(file('here.txt')).toBe('x\n');
    expect(existsSync(join(ws, 'bad.txt'))).toBe(false);
  });
});
