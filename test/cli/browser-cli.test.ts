import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeRawConfig } from '../../source/config/index.js';
import { CLI_ENTRY, runCli } from '../support/cli-process.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { assertBuilt } from './cli-process.js';

let state: TempState | undefined;
beforeAll(assertBuilt);
afterEach(() => {
  state?.cleanup();
  state = undefined;
});

describe('claw browser', () => {
  it('secret set stores a value 0600 from stdin; list shows names, never values; remove deletes it', async () => {
    state = makeTempState();
    const set = spawnSync(process.execPath, [CLI_ENTRY, 'browser', 'secret', 'set', 'BANK_PASSWORD'], {
      env: state.env,
      input: 'correct horse battery\n',
      encoding: 'utf8',
    });
    expect(set.status, set.stderr).toBe(0);
    expect(set.stdout).toContain('secret:BANK_PASSWORD');
    const file = `${state.dir}/credentials/browser-secrets.json`;
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ BANK_PASSWORD: 'correct horse battery' });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const list = await runCli(['browser', 'secret', 'list'], state.env);
    expect(list.stdout.trim()).toBe('BANK_PASSWORD');
    const status = await runCli(['browser', 'status'], state.env);
    for (const output of [set.stdout, list.stdout, status.stdout, status.stderr]) expect(output).not.toContain('correct horse');
    const bad = spawnSync(process.execPath, [CLI_ENTRY, 'browser', 'secret', 'set', '../x'], { env: state.env, input: 'v\n', encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('is not a secret name');
    expect((await runCli(['browser', 'secret', 'remove', 'BANK_PASSWORD'], state.env)).code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({});
  });

  it('status says where Chromium is, or what to set when the configured one is missing', async () => {
    state = makeTempState();
    const found = await runCli(['browser', 'status', '--json'], state.env);
    expect(found.code).toBe(0);
    expect(JSON.parse(found.stdout)).toMatchObject({ enabled: true, chromium: expect.stringMatching(/chrom/), profiles: [] });
    writeRawConfig(state.paths.config, { tools: { browser: { executablePath: '/nowhere/chromium' } } });
    const missing = await runCli(['browser', 'status'], state.env);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain('/nowhere/chromium does not exist: fix tools.browser.executablePath');
    const doctor = await runCli(['doctor', '--json'], state.env);
    expect(doctor.stdout).toContain('tools.browser.executablePath /nowhere/chromium does not exist');
  });
});
