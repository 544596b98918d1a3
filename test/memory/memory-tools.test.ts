import { afterEach, describe, expect, it } from 'vitest';
import { closeMemoryIndex } from '../../source/memory/index.js';
import { ToolRegistry, type ToolContext } from '../../source/tools/index.js';
import { createMemoryTools } from '../../source/tools/memory-tools.js';
import { memoryFixture, type MemoryFixture } from './memory-fixture.js';

let fx: MemoryFixture;
afterEach(async () => {
  await closeMemoryIndex(fx.state.paths, 'main');
  await fx.cleanup();
});

function context(workspace: string): ToolContext {
  return {
    agentId: 'main',
    sessionKey: 'agent:main:main',
    sessionType: 'main',
    workspaceDir: workspace,
    signal: new AbortController().signal,
    onUpdate: () => undefined,
    approvals: {
      request: () => Promise.reject(new Error('memory tools never ask for approval')),
      approvedForSession: () => false,
    },
  };
}

describe('memory tools', () => {
  it('memory_search and memory_get work through the tool registry', async () => {
    fx = memoryFixture();
    fx.write('MEMORY.md', '# Facts\n\nThe garage door code hint is "the year we moved in".\n\n## Cars\n\nThe car is a 2019 Skoda Octavia, plate XR-512-B.\n');
    const registry = new ToolRegistry();
    for (const tool of createMemoryTools({ config: fx.config, paths: fx.state.paths })) registry.register(tool);
    expect(registry.list().map((t) => [t.name, t.group])).toEqual([
      ['memory_get', 'memory'],
      ['memory_search', 'memory'],
    ]);

    const search = await registry.invoke('memory_search', { query: 'XR-512-B' }, context(fx.workspace));
    expect(search.isError).toBe(false);
    const parsed = JSON.parse(search.content) as { mode: string; results: { path: string; startLine: number; endLine: number }[] };
    expect(parsed.mode).toBe('keyword');
    expect(parsed.results[0]).toMatchObject({ path: 'MEMORY.md', startLine: 1 });

    const get = await registry.invoke('memory_get', { path: 'MEMORY.md', from: 7, lines: 1 }, context(fx.workspace));
    expect(get).toMatchObject({ isError: false, content: 'MEMORY.md lines 7-7 of 8:\nThe car is a 2019 Skoda Octavia, plate XR-512-B.' });

    const escaped = await registry.invoke('memory_get', { path: '../claw.json' }, context(fx.workspace));
    expect(escaped.isError).toBe(true);
    expect(escaped.content).toMatch(/not a memory file/);
  });
});
