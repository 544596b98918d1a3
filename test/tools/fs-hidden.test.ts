import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureGatewayTokenSync, loadConfig, statePaths, writeRawConfig, type StatePaths } from '../../source/config/index.js';
import { createToolsRuntime, type ToolContext, type ToolsRuntime } from '../../source/tools/index.js';
import { mainSessionContext } from '../support/tool-context.js';

let home: string | undefined;
afterEach(() => {
  if (home) rmSync(home, { recursive: true, force: true });
  home = undefined;
});

/**
 * A home folder holding the state dir and a secret folder, and tools.fsRoots
 * listing the whole home folder (and the state dir itself), through the real
 * tools runtime.
 */
function setup(): { runtime: ToolsRuntime; context: ToolContext; home: string; paths: StatePaths } {
  home = mkdtempSync(join(tmpdir(), 'claw-home-'));
  const paths = statePaths(join(home, '.claw'));
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY MATERIAL');
  mkdirSync(paths.root);
  writeRawConfig(paths.config, { tools: { fsRoots: [home, paths.root], exec: { sandbox: { hiddenPaths: [join(home, '.ssh')] } } } });
  ensureGatewayTokenSync(paths, {});
  const runtime = createToolsRuntime({ config: loadConfig(paths.config), paths });
  const workspaceDir = paths.workspace('main');
  mkdirSync(workspaceDir, { recursive: true });
  const context = mainSessionContext(runtime, workspaceDir);
  return { runtime, context, home, paths };
}

describe('fs tools and the hidden paths', () => {
  it('never open the state dir outside the workspace, nor a secret path, even when tools.fsRoots lists what holds them', async () => {
    const { runtime, context, home, paths } = setup();
    const invoke = (name: string, args: Record<string, unknown>) => runtime.registry.invoke(name, args, context);
    const cache = join(paths.root, 'cache', 'code', 'gateway-run.bin');
    const hook = join(paths.root, 'hooks', 'planted', 'handler.js');
    for (const path of [cache, hook, paths.config]) {
      const written = await invoke('write', { path, content: 'planted' });
      expect(written.isError, path).toBe(true);
      expect(written.content).toContain(`inside ${paths.root}, which tools may not open`);
    }
    expect(existsSync(cache) || existsSync(dirname(hook))).toBe(false);
    expect(readFileSync(paths.config, 'utf8')).not.toContain('planted');
    for (const path of [paths.gatewayToken, join(home, '.ssh', 'id_ed25519')]) {
      const read = await invoke('read', { path });
      expect(read.isError, path).toBe(true);
      expect(read.content).not.toMatch(/PRIVATE KEY|[0-9a-f]{32}/);
    }
    // The workspace inside the state dir, and the rest of the home folder, stay open.
    expect((await invoke('write', { path: join(context.workspaceDir, 'notes.md'), content: 'kept' })).isError).toBe(false);
    expect((await invoke('write', { path: join(home, 'project', 'a.txt'), content: 'kept' })).isError).toBe(false);
    expect(readFileSync(join(home, 'project', 'a.txt'), 'utf8')).toBe('kept');
  });
});
