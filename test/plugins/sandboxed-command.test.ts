import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../source/config/index.js';
import { apiSatisfies, widenedPermissions } from '../../source/plugins/manifest.js';
import { grantedPath, pluginCommand } from '../../source/plugins/sandboxed-command.js';
import { PLUGIN_RUNTIME_FILE } from '../../source/plugins/index.js';
import { confineCommand, execSandboxFor } from '../../source/tools/index.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

let state: TempState | undefined;
afterEach(() => {
  state?.cleanup();
  state = undefined;
});

const none = { net: [], fs: { read: [], write: [] }, env: [], secrets: [] };

describe('the plugin sandbox', () => {
  it('bubblewrap alone hides claw state from the plugin process: the wall does not rest on Node permissions', () => {
    state = makeTempState();
    const { paths } = state;
    mkdirSync(paths.credentials, { recursive: true });
    writeFileSync(join(paths.credentials, 'openai.json'), '{"apiKey":"sk-hidden"}');
    const pluginDir = join(paths.root, 'plugins', 'p');
    mkdirSync(pluginDir, { recursive: true });
    writeFileSync(join(pluginDir, 'own.txt'), 'mine');
    const roots = { workspace: paths.workspace('main'), plugin: pluginDir, state: paths.root };
    const command = pluginCommand({ runtimeFile: PLUGIN_RUNTIME_FILE, pluginDir, permissions: none, roots, maxMemoryMb: 128 });
    const script = `const fs=require('fs');for(const p of process.argv.slice(1)){try{process.stdout.write(p+'='+fs.readFileSync(p,'utf8')+'\\n')}catch(e){process.stdout.write(p+'='+e.code+'\\n')}}`;
    const sandbox = execSandboxFor(loadConfig(paths.config), paths);
    // The same sandbox as the plugin's, running a Node without the permission model.
    const confined = confineCommand(sandbox, command.file, ['-e', script, join(paths.credentials, 'openai.json'), paths.config, join(pluginDir, 'own.txt')], {
      cwd: pluginDir,
      writable: command.writable,
      readOnly: [],
      network: false,
      readable: command.readable,
      visible: command.visible,
    });
    if ('unavailable' in confined) throw new Error(confined.unavailable);
    const run = spawnSync(confined.file, confined.args, { encoding: 'utf8' });
    expect(run.stdout).toContain(`${join(paths.credentials, 'openai.json')}=ENOENT`);
    expect(run.stdout).not.toContain('sk-hidden');
    expect(run.stdout).toContain(`${join(pluginDir, 'own.txt')}=mine`);
    expect(command.args).toContain('--experimental-permission');
  });

  it('grants never reach into claw state or around it', () => {
    const roots = { workspace: '/s/workspace', plugin: '/s/plugins/p', state: '/s', home: '/home/u' };
    expect(grantedPath('$workspace/notes', roots)).toBe('/s/workspace/notes');
    expect(grantedPath('~/Documents', roots)).toBe('/home/u/Documents');
    for (const bad of ['/s/credentials', '/s', '/', '$plugin/../../credentials', 'relative/path']) expect(() => grantedPath(bad, roots), bad).toThrow();
  });

  it('reads API ranges and lists what an update adds', () => {
    expect(apiSatisfies('^1', '1.0.0')).toBe(true);
    expect(apiSatisfies('^2', '1.0.0')).toBe(false);
    expect(apiSatisfies('>=1.0.0', '1.0.0')).toBe(true);
    expect(apiSatisfies('1.x', '1.0.0')).toBe(true);
    expect(widenedPermissions({ ...none, net: ['a.example'], secrets: ['K'] }, { ...none, net: ['a.example'] })).toEqual(['secret K']);
  });
});
