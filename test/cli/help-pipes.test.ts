import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { commandTable } from '../../source/cli/command-table.js';
import { CLI_ENTRY, runCli, runCliSync } from '../support/cli-process.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

let state: TempState | undefined;
afterEach(() => {
  if (state) runCliSync(['gateway', 'stop'], state.env);
  state?.cleanup();
  state = undefined;
});

const commands = Object.keys(commandTable).filter((name) => name !== '');

describe('claw help, generated from the command table', () => {
  it('lists every command in `claw --help` and `claw help`, and exits 0', async () => {
    state = makeTempState();
    for (const args of [['--help'], ['help'], ['-h']]) {
      const result = await runCli(args, state.env);
      expect(result.code, args.join(' ')).toBe(0);
      for (const name of commands) expect(result.stdout, `${name} missing from claw ${args.join(' ')}`).toMatch(new RegExp(`^  ${name} `, 'm'));
    }
  });

  // Two CLI processes per command: the time grows with the command table, not with a fault.
  it('prints the usage of each command for `claw help NAME` and `claw NAME --help`, without running it', { timeout: 120_000 }, async () => {
    state = makeTempState();
    for (const name of commands) {
      for (const args of [
        ['help', name],
        [name, '--help'],
      ]) {
        const result = await runCli(args, state.env);
        expect(result.code, `claw ${args.join(' ')}: ${result.stderr}`).toBe(0);
        expect(result.stdout).toContain(`claw ${name}: ${commandTable[name]!.summary}`);
        for (const line of commandTable[name]!.usage) expect(result.stdout).toContain(line);
      }
    }
    // `claw gateway --help` used to say "missing action"; it must not have started anything either.
    expect(runCliSync(['status'], state.env).stdout).toContain('not running');
  });

  it('suggests the closest command for a typo', async () => {
    state = makeTempState();
    const result = await runCli(['stauts'], state.env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Did you mean `claw status`?');
  });
});

describe('a closed pipe', () => {
  it('ends every listing command quietly when the reader has gone (`| true` closes before the first write)', () => {
    state = makeTempState();
    for (const args of ['models list', '--help', '--version', 'help mcp', 'mcp list', 'config get']) {
      const result = spawnSync('/bin/sh', ['-c', `"${process.execPath}" "${CLI_ENTRY}" ${args} | true; echo "rc=\${PIPESTATUS:-$?}"`], {
        env: state.env,
        encoding: 'utf8',
      });
      expect(result.stderr, `claw ${args}`).not.toMatch(/EPIPE|Error|at /);
      // Run again with the status of claw itself (sh has no PIPESTATUS).
      const direct = spawnSync('/bin/bash', ['-c', `set -o pipefail; "${process.execPath}" "${CLI_ENTRY}" ${args} | true`], {
        env: state.env,
        encoding: 'utf8',
      });
      expect(direct.stderr, `claw ${args}`).toBe('');
      expect(direct.status, `claw ${args}`).toBe(0);
    }
  });
});

// A non-blocking stdout that is already full makes the executable's direct write of its help fail with EAGAIN.
const fullPipe = `
import os, subprocess, sys, time
r, w = os.pipe()
os.set_blocking(w, False)
filled = 0
try:
    while True:
        filled += os.write(w, b"f" * 4096)
except BlockingIOError:
    pass
child = subprocess.Popen(sys.argv[1:], stdout=w)
os.close(w)
time.sleep(0.3)
out = b""
while True:
    chunk = os.read(r, 65536)
    if not chunk:
        break
    out += chunk
sys.stdout.write(f"{child.wait()} {filled}\\n")
sys.stdout.buffer.write(out[filled:])
`;

describe('a full, non-blocking stdout', () => {
  it('still gets the whole help, once the reader drains it', () => {
    state = makeTempState();
    const result = spawnSync('python3', ['-c', fullPipe, process.execPath, CLI_ENTRY, '--help'], { env: state.env, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    const [status, ...help] = result.stdout.split('\n');
    expect(status).toMatch(/^0 \d+$/);
    expect(help.join('\n')).toBe(runCliSync(['--help'], state.env).stdout);
  });
});

describe('config set refusals', () => {
  it('says which value was refused and why, suggests a key for a typo, and writes nothing', async () => {
    state = makeTempState();
    const port = await runCli(['config', 'set', 'gateway.port', 'abc'], state.env);
    expect(port.code).toBe(2);
    expect(port.stderr).toMatch(/gateway\.port = "abc" was refused: .*number.*Nothing was written/);
    expect(port.stderr).not.toContain('is not valid');
    const typo = await runCli(['config', 'set', 'gateway.prot', '5'], state.env);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('"gateway.prot" is not a config key. Did you mean gateway.port?');
    expect((await runCli(['config', 'get', 'gateway.port'], state.env)).stdout.trim()).toBe('18789');
    const good = await runCli(['config', 'set', 'gateway.port', '19001'], state.env);
    expect(good.code).toBe(0);
  });

  it('with a broken claw.json and no gateway, `claw agent` names the key and what was expected', async () => {
    state = makeTempState();
    writeFileSync(state.paths.config, JSON.stringify({ gateway: { port: 'not-a-port' } }));
    const result = await runCli(['agent', '-m', 'hello'], state.env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/gateway\.port: .*number.*found "not-a-port"/);
    expect(result.stderr).not.toContain('exited during start');
  });
});
