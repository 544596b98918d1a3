import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ENTRY, runCli } from '../support/cli-process.js';
import { startFakeModelDaemon, type FakeModelDaemon } from '../support/fake-model-daemon.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { EXAMPLE_PLUGIN } from '../plugins/plugin-fixtures.js';
import { assertBuilt } from './cli-process.js';

let daemon: FakeModelDaemon | undefined;
let state: TempState | undefined;
let packed: string | undefined;

beforeAll(assertBuilt);
afterEach(async () => {
  await daemon?.stop();
  state?.cleanup();
  if (packed) rmSync(packed, { recursive: true, force: true });
  daemon = state = packed = undefined;
});

/** The example plugin as `npm pack` makes it: what a registry would serve. */
function packExample(): string {
  packed = mkdtempSync(join(tmpdir(), 'claw-plugin-tgz-'));
  const name = execFileSync('npm', ['pack', EXAMPLE_PLUGIN, '--pack-destination', packed, '--silent'], { encoding: 'utf8' }).trim().split('\n').pop() as string;
  return join(packed, name);
}

describe('claw plugins', () => {
  it('add from a .tgz installs but does not enable; enable needs --yes off a terminal; list and doctor read the files without a gateway', async () => {
    state = makeTempState();
    const add = await runCli(['plugins', 'add', packExample()], state.env, 60_000);
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toContain('Installed acme-weather 1.0.0');
    expect(add.stdout).toContain('contributes tools: acme-weather__weather_now, acme-weather__convert_temperature');
    expect(add.stdout).toContain('asks for network: wttr.in');
    expect(add.stdout).toContain('`claw plugins enable acme-weather`');
    const lock = JSON.parse(readFileSync(join(state.dir, 'plugins', 'plugins.lock'), 'utf8'));
    expect(lock.plugins['acme-weather']).toMatchObject({ version: '1.0.0', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });

    const listed = JSON.parse((await runCli(['plugins', 'list', '--json'], state.env)).stdout);
    expect(listed).toMatchObject({ gateway: false, plugins: [{ id: 'acme-weather', state: 'disabled', granted: false }] });

    const refused = await runCli(['plugins', 'enable', 'acme-weather'], state.env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('grant these permissions with --yes');
    const enabled = await runCli(['plugins', 'enable', 'acme-weather', '--yes'], state.env);
    expect(enabled.code, enabled.stderr).toBe(0);
    expect(enabled.stdout).toContain('No gateway is running; it applies this when it starts.');

    const unknown = await runCli(['plugins', 'enable', 'nope', '--yes'], state.env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no plugin "nope" is installed');
    // Secrets it declared are stored 0600 with the credentials, never shown; undeclared names are refused.
    const stored = spawnSync(process.execPath, [CLI_ENTRY, 'plugins', 'secret', 'set', 'acme-weather', 'ACME_WEATHER_KEY'], {
      env: state.env,
      input: 'wk-123456789\n',
      encoding: 'utf8',
    });
    expect(stored.status, stored.stderr).toBe(0);
    const file = join(state.dir, 'credentials', 'plugins', 'acme-weather.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ ACME_WEATHER_KEY: 'wk-123456789' });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const secrets = await runCli(['plugins', 'secret', 'list', 'acme-weather'], state.env);
    expect(secrets.stdout).toBe('ACME_WEATHER_KEY  stored\n');
    const undeclaredSecret = spawnSync(process.execPath, [CLI_ENTRY, 'plugins', 'secret', 'set', 'acme-weather', 'OTHER'], {
      env: state.env,
      input: 'x\n',
      encoding: 'utf8',
    });
    expect(undeclaredSecret.status).toBe(1);
    expect(undeclaredSecret.stderr).toContain('does not declare the secret "OTHER"');
    const doctor = await runCli(['plugins', 'doctor'], state.env);
    expect(doctor.stdout).toMatch(/ok +acme-weather: api \^1 \(claw speaks 1\.0\.0\); lock ok; enabled; process no gateway/);
  }, 120_000);

  it('a running gateway applies add, enable, disable and remove at once; restart and logs reach it', async () => {
    daemon = await startFakeModelDaemon();
    const env = daemon.state.env;
    expect((await runCli(['plugins', 'add', EXAMPLE_PLUGIN], env)).code).toBe(0);
    // Off a terminal, without --yes: the gateway asks the owner (the TUI prompts; here `claw approvals`).
    const enabling = runCli(['plugins', 'enable', 'acme-weather'], env, 60_000);
    let approval: { id: string; kind: string; command: string } | undefined;
    for (let i = 0; i < 200 && !approval; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      approval = JSON.parse((await runCli(['approvals', 'list', '--json'], env)).stdout).approvals[0];
    }
    expect(approval).toMatchObject({ kind: 'plugin', command: expect.stringContaining('enable plugin acme-weather 1.0.0: network: wttr.in') });
    expect((await runCli(['approvals', 'approve', approval!.id], env)).code).toBe(0);
    const enabled = await enabling;
    expect(enabled.code, enabled.stderr).toBe(0);
    expect(enabled.stderr).toContain(`waiting for the owner to approve ${approval!.id} in the TUI`);
    expect(enabled.stdout).toContain('The gateway applied it: running.');
    const listed = JSON.parse((await runCli(['plugins', 'list', '--json'], env)).stdout);
    expect(listed).toMatchObject({
      gateway: true,
      plugins: [
        {
          id: 'acme-weather',
          state: 'running',
          pid: expect.any(Number),
          grants: ["network: wttr.in (through claw's address policy)", 'secrets: ACME_WEATHER_KEY'],
        },
      ],
    });
    expect((await runCli(['plugins', 'list'], env)).stdout).toContain('granted secrets: ACME_WEATHER_KEY');

    const command = await runCli(['agent', '-m', '/weather'], env);
    expect(command.stdout).toContain('acme-weather: 0 turn(s) seen; units metric');
    const restart = await runCli(['plugins', 'restart', 'acme-weather'], env);
    expect(restart.code, restart.stderr).toBe(0);
    expect(restart.stdout).toContain('acme-weather: running');

    const disabled = await runCli(['plugins', 'disable', 'acme-weather'], env);
    expect(disabled.stdout).toContain('The gateway applied it: disabled.');
    expect((await runCli(['plugins', 'remove', 'acme-weather'], env)).code).toBe(0);
    expect(JSON.parse((await runCli(['plugins', 'list', '--json'], env)).stdout).plugins).toEqual([]);
    const logs = await runCli(['plugins', 'logs', 'acme-weather'], env);
    expect(logs.code).toBe(1);
  }, 120_000);
});
