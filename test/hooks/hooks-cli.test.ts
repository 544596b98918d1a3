import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readGatewayTokenSync, readRawConfig, writeRawConfig } from '../../source/config/index.js';
import { readWebhookTokenSync } from '../../source/hooks/index.js';
import { runCli } from '../support/cli-process.js';
import { startGatewayChild, type GatewayChild } from '../support/gateway-child.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { writeHook } from './hook-fixtures.js';

let state: TempState | undefined;
let child: GatewayChild | undefined;
afterEach(async () => {
  await child?.stop();
  state?.cleanup();
  child = undefined;
  state = undefined;
});

describe('claw hooks', () => {
  it('lists the bundled session-memory hook as on, and a user hook as disabled until enabled', async () => {
    state = makeTempState();
    writeHook(join(state.dir, 'hooks'), 'audit', 'events: [tool:before]', 'export default () => undefined;\n');
    const listed = await runCli(['hooks', 'list', '--json'], state.env);
    expect(listed.code).toBe(0);
    const list = JSON.parse(listed.stdout) as { gateway: boolean; hooks: Array<{ name: string; enabled: boolean; source: string }> };
    expect(list.gateway).toBe(false);
    expect(list.hooks).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'session-memory', enabled: true, source: 'bundled' }),
        expect.objectContaining({ name: 'audit', enabled: false, source: 'user' }),
      ]),
    );
    const enabled = await runCli(['hooks', 'enable', 'audit'], state.env);
    expect(enabled.code).toBe(0);
    expect((readRawConfig(state.paths.config) as { hooks: { entries: Record<string, { enabled: boolean }> } }).hooks.entries.audit).toEqual({
      enabled: true,
      pin: { dir: join(state.dir, 'hooks', 'audit'), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    const disabled = await runCli(['hooks', 'disable', 'session-memory'], state.env);
    expect(disabled.code).toBe(0);
    const text = await runCli(['hooks', 'list'], state.env);
    expect(text.stdout).toMatch(/audit\s+on\s+user/);
    expect(text.stdout).toMatch(/session-memory\s+disabled\s+bundled/);
    const unknown = await runCli(['hooks', 'enable', 'nope'], state.env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no hook named "nope"');
  });

  it('check names the file and the mistake of an invalid HOOK.md and exits 1', async () => {
    state = makeTempState();
    const dir = join(state.dir, 'hooks', 'broken');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'HOOK.md'), '---\nname: broken\ndescription: typo in the event\nevents: [tool:bfore]\ncommand: true\n---\n');
    const checked = await runCli(['hooks', 'check'], state.env);
    expect(checked.code).toBe(1);
    expect(checked.stdout).toContain(join(dir, 'HOOK.md'));
    expect(checked.stdout).toContain('unknown event "tool:bfore"');
  });

  it('token prints the webhook token, and test posts a sample that the running gateway accepts', async () => {
    state = makeTempState();
    writeRawConfig(state.paths.config, { hooks: { mappings: { grafana: { path: 'grafana', template: 'Alert {{title}}' } } } });
    child = await startGatewayChild(state, { CLAW_TEST_RUNNER: 'echo' });
    const token = await runCli(['hooks', 'token'], state.env);
    expect(token.stdout.trim()).toBe(readWebhookTokenSync(state.paths));
    expect(token.stdout.trim()).not.toBe(readGatewayTokenSync(state.paths, {}));
    const posted = await runCli(['hooks', 'test', 'grafana', '--json', '{"title": "disk full"}'], state.env);
    expect(posted.code).toBe(0);
    expect(posted.stdout).toMatch(/^202 \{"runId":"[0-9a-f-]{36}","sessionKey":"hook:grafana"/);
    const bad = await runCli(['hooks', 'test', 'grafana', '--json', '{not json'], state.env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('not valid JSON');
  });
});
