import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { watchMemory, type MemoryIndex, type MemoryWatcher, type SyncStats } from '../../source/memory/index.js';
import { memoryFixture, waitFor, type MemoryFixture } from './memory-fixture.js';

let fx: MemoryFixture;
let watcher: MemoryWatcher | undefined;
afterEach(async () => {
  await watcher?.close();
  watcher = undefined;
  await fx.cleanup();
});

const paths = async (index: MemoryIndex, query: string) => (await index.search({ query })).results.map((r) => r.path);

describe('watchMemory', () => {
  it('re-indexes after adds, edits, renames and deletes', async () => {
    fx = memoryFixture();
    const index = fx.open();
    await index.sync();
    const syncs: SyncStats[] = [];
    watcher = watchMemory(index, { debounceMs: 300, onSynced: (stats) => syncs.push(stats) });
    await watcher.ready;

    fx.write('memory/a.md', '# A\n\nThe lighthouse code word is marigold.\n');
    fx.write('memory/b.md', '# B\n\nSecond note in the same burst.\n');
    await waitFor(async () => syncs.some((s) => s.filesChanged === 2) || syncs.reduce((n, s) => n + s.filesChanged, 0) >= 2, 'the add burst');
    expect(await paths(index, 'marigold')).toEqual(['memory/a.md']);

    fx.write('memory/a.md', '# A\n\nThe lighthouse code word is now juniper.\n');
    await waitFor(async () => (await paths(index, 'juniper')).length === 1, 'the edit');
    expect(await paths(index, 'marigold')).toEqual([]);

    renameSync(join(fx.workspace, 'memory/a.md'), join(fx.workspace, 'memory/renamed.md'));
    await waitFor(async () => (await paths(index, 'juniper'))[0] === 'memory/renamed.md', 'the rename');

    fx.remove('memory/renamed.md');
    await waitFor(async () => (await paths(index, 'juniper')).length === 0, 'the delete');

    fx.write('MEMORY.md', '# Root\n\nEvergreen fact: the boat is called Osprey.\n');
    await waitFor(async () => (await paths(index, 'Osprey'))[0] === 'MEMORY.md', 'MEMORY.md');
  });

  it('ignores files outside MEMORY.md and memory/', async () => {
    fx = memoryFixture();
    const index = fx.open();
    await index.sync();
    const syncs: SyncStats[] = [];
    watcher = watchMemory(index, { debounceMs: 100, onSynced: (stats) => syncs.push(stats) });
    await watcher.ready;
    fx.write('AGENTS.md', '# Agents\n\nnot memory: pelican\n');
    fx.write('memory/c.md', '# C\n\nflamingo\n');
    await waitFor(async () => (await paths(index, 'flamingo')).length === 1, 'memory/c.md');
    expect(await paths(index, 'pelican')).toEqual([]);
  });
});
