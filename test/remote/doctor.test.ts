import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkNodeVersion, type DoctorCheck } from '../../source/daemon/index.js';
import { runCli } from '../support/cli-process.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

describe('claw doctor', () => {
  let state: TempState | undefined;
  afterEach(() => state?.cleanup());

  it('names each problem with its fix and fails on a readable token', async () => {
    state = makeTempState();
    mkdirSync(dirname(state.paths.gatewayToken), { recursive: true });
    writeFileSync(state.paths.gatewayToken, 'secret-token-value\n');
    chmodSync(state.paths.gatewayToken, 0o644);
    const result = await runCli(['doctor', '--json'], { ...state.env, OLLAMA_HOST: '127.0.0.1:9', OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '' });
    expect(result.code).toBe(1);
    const checks = JSON.parse(result.stdout) as DoctorCheck[];
    const byName = new Map(checks.map((c) => [c.name, c]));
    expect([...byName.keys()]).toEqual([
      'node',
      'state dir',
      'token',
      'config',
      'port',
      'sqlite-vec',
      'provider',
      'sandbox',
      'browser',
      'supervision',
      'memory',
    ]);
    expect(byName.get('sandbox')?.detail).toMatch(/exec (sandboxed \(bubblewrap|UNSANDBOXED)/);
    expect(byName.get('token')).toMatchObject({ status: 'fail', fix: `chmod 600 ${state.paths.gatewayToken}` });
    expect(byName.get('provider')?.status).toBe('fail');
    expect(byName.get('provider')?.fix).toMatch(/OPENAI_API_KEY/);
    expect(byName.get('sqlite-vec')?.status).toBe('ok');
    expect(result.stdout).not.toContain('secret-token-value');
  });

  it('reports a broken claw.json as a failed check, not a crash', async () => {
    state = makeTempState();
    writeFileSync(state.paths.config, '{ "gateway": { "port": "nope" } }');
    const result = await runCli(['doctor'], state.env);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/✗ config .*gateway\.port/s);
  });

  it('checks the Node version', () => {
    expect(checkNodeVersion('20.19.0').status).toBe('ok');
    expect(checkNodeVersion('18.20.1')).toMatchObject({ status: 'fail' });
  });
});
