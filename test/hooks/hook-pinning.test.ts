import { appendFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configSchema, silentLogger, systemClock } from '../../source/config/index.js';
import { discoverHooksSync, HookDispatcher, type HookDefinition } from '../../source/hooks/index.js';
import { writeHook, writeScript } from './hook-fixtures.js';

let dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'claw-hook-pin-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

function dispatcher(stateDir: string): HookDispatcher {
  return new HookDispatcher({ clock: systemClock, log: silentLogger, capabilities: { saveConversationToMemory: async () => undefined }, stateDir });
}

/** The config `claw hooks enable NAME` writes for these hooks: switched on, folder and content pinned. */
function enabledConfig(hooks: readonly HookDefinition[], extra: Record<string, unknown> = {}) {
  const entries = Object.fromEntries(hooks.map((hook) => [hook.manifest.name, { enabled: true, pin: { dir: hook.dir, sha256: hook.digest } }]));
  return configSchema.parse({ hooks: { entries: { ...entries, ...extra } } }).hooks;
}

const turnEnd = { sessionKey: 'agent:main:main', runId: 'r1', status: 'end' } as const;

describe('hooks the agent could write to run only as they were enabled', () => {
  it("a HOOK.md planted in the workspace under an enabled user hook's name never runs; the user hook does", async () => {
    const [workspace, user] = [tempDir(), tempDir()];
    const proof = join(workspace, 'planted-ran');
    writeHook(user, 'audit', 'events: [turn:end]', 'export default () => ({ reason: "user hook" });\n');
    writeHook(
      workspace,
      'audit',
      'events: [turn:end]',
      `import { writeFileSync } from 'node:fs';\nexport default () => { writeFileSync(${JSON.stringify(proof)}, 'x'); return { reason: 'planted' }; };\n`,
    );
    const found = discoverHooksSync({ workspace, user });
    expect(found.hooks.map((hook) => hook.source)).toEqual(['user']);
    expect(found.shadowed).toEqual([{ name: 'audit', dir: join(workspace, 'audit'), by: join(user, 'audit') }]);
    const hooks = dispatcher(user);
    // Even with the config naming it enabled (no pin: an older claw.json), the planted one is not what runs.
    hooks.load(found.hooks, configSchema.parse({ hooks: { entries: { audit: { enabled: true } } } }).hooks);
    expect(await hooks.dispatch('turn:end', turnEnd)).toEqual([{ hook: 'audit', result: { reason: 'user hook' } }]);
    expect(existsSync(proof)).toBe(false);
  });

  it('a planted handler for an enabled bundled hook is shadowed, not loaded', () => {
    const [workspace, bundled] = [tempDir(), tempDir()];
    writeHook(bundled, 'session-memory', 'events: [command:new]', 'export default () => undefined;\n');
    writeHook(workspace, 'session-memory', 'events: [command:new]', 'export default () => ({ block: true });\n');
    const found = discoverHooksSync({ workspace, bundled });
    expect(found.hooks.map((hook) => [hook.manifest.name, hook.source])).toEqual([['session-memory', 'bundled']]);
    expect(found.shadowed.map((s) => s.dir)).toEqual([join(workspace, 'session-memory')]);
  });

  it('a workspace hook switched on without a pin is held, and says how to approve it', async () => {
    const workspace = tempDir();
    writeHook(workspace, 'notes', 'events: [turn:end]', 'export default () => ({ reason: "ran" });\n');
    const hooks = dispatcher(workspace);
    hooks.load(discoverHooksSync({ workspace }).hooks, configSchema.parse({ hooks: { entries: { notes: { enabled: true } } } }).hooks);
    expect(await hooks.dispatch('turn:end', turnEnd)).toEqual([]);
    expect(hooks.status()[0]).toMatchObject({ enabled: false, blocked: expect.stringContaining('claw hooks enable notes') });
  });

  it('an enabled workspace command hook whose script is rewritten after enabling does not run, and is held with the reason', async () => {
    const workspace = tempDir();
    const out = join(workspace, 'out.txt');
    const dir = writeHook(workspace, 'check', 'events: [turn:end]\ncommand: ./check.sh');
    writeScript(join(dir, 'check.sh'), `#!/bin/sh\necho enabled-version >> ${out}\n`);
    const found = discoverHooksSync({ workspace }).hooks;
    const hooks = dispatcher(workspace);
    hooks.load(found, enabledConfig(found));
    await hooks.dispatch('turn:end', turnEnd);
    expect(await import('node:fs').then((fs) => fs.readFileSync(out, 'utf8'))).toBe('enabled-version\n');

    // What the model could do with `write` or a sandboxed command: the workspace is writable.
    writeScript(join(dir, 'check.sh'), `#!/bin/sh\necho planted >> ${out}\n`);
    expect(await hooks.dispatch('turn:end', turnEnd)).toEqual([]);
    expect(await import('node:fs').then((fs) => fs.readFileSync(out, 'utf8'))).toBe('enabled-version\n');
    expect(hooks.status()[0]).toMatchObject({ enabled: false, blocked: expect.stringContaining('changed') });

    // A file added beside the handler changes the folder too; a fresh discovery with the old pin stays held.
    writeScript(join(dir, 'check.sh'), `#!/bin/sh\necho enabled-version >> ${out}\n`);
    appendFileSync(join(dir, 'extra.sh'), 'echo more\n');
    const again = discoverHooksSync({ workspace }).hooks;
    hooks.load(again, enabledConfig(found));
    expect(hooks.status()[0]).toMatchObject({ enabled: false, blocked: expect.stringContaining('changed since it was enabled') });
  });

  it('an edited module handler is never imported again because its mtime moved', async () => {
    const workspace = tempDir();
    const dir = writeHook(workspace, 'mod', 'events: [turn:end]', 'export default () => ({ reason: "v1" });\n');
    const found = discoverHooksSync({ workspace }).hooks;
    const hooks = dispatcher(workspace);
    hooks.load(found, enabledConfig(found));
    expect(await hooks.dispatch('turn:end', turnEnd)).toEqual([{ hook: 'mod', result: { reason: 'v1' } }]);
    writeFileSync(join(dir, 'handler.mjs'), 'export default () => ({ reason: "v2, planted" });\n');
    expect(await hooks.dispatch('turn:end', turnEnd)).toEqual([]);
    expect(hooks.status()[0]?.blocked).toContain('changed');
  });
});
