import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ENTRY, runCli, runCliSync } from '../support/cli-process.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { sshdPath, startTestSshd, type TestSshd } from '../support/sshd.js';
import { hasTmux, TmuxTerminal, shellQuote } from '../tui/support/tmux.js';

const poll = { timeout: 40_000, interval: 100 };

function count(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

describe.runIf(hasTmux() && Boolean(sshdPath()))('claw attach user@host in a real terminal', () => {
  let sshd: TestSshd;
  let remote: TempState;
  let term: TmuxTerminal | undefined;

  beforeAll(async () => {
    sshd = await startTestSshd();
    remote = makeTempState('claw-remote-tui-');
    // A deterministic model on the remote: every message is answered "echo: <text>".
    const started = await runCli(['gateway', 'start', '--port', '0'], { ...remote.env, CLAW_TEST_RUNNER: 'echo' });
    expect(started.code, started.stderr).toBe(0);
  });

  afterAll(async () => {
    term?.kill();
    runCliSync(['gateway', 'stop'], remote.env);
    await sshd.stop();
    remote.cleanup();
  });

  it('shows the remote host, round-trips a message, and resumes without duplicates after the link drops', { timeout: 120_000 }, async () => {
    const remoteClaw = `CLAW_STATE_DIR=${remote.dir} ${process.execPath} ${CLI_ENTRY}`;
    const command = [
      'env -u CI TERM=xterm-256color',
      shellQuote(process.execPath),
      shellQuote(CLI_ENTRY),
      'attach',
      sshd.hostAlias,
      '--ssh-config',
      shellQuote(sshd.configFile),
      '--remote-claw',
      shellQuote(remoteClaw),
    ].join(' ');
    term = new TmuxTerminal(`${command}; echo "ATTACH-EXITED rc=$?"; sleep 600`, { cols: 100, rows: 30 });
    const t = term;

    await expect.poll(() => t.screen(), poll).toContain('● open');
    expect(t.screen()).toContain(`claw · ${sshd.hostAlias} (`);

    t.type('first over ssh');
    t.keys('Enter');
    await expect.poll(() => t.screen(), poll).toContain('echo: first over ssh');

    sshd.dropConnections();
    await expect.poll(() => t.screen(), poll).toMatch(/● (reconnecting|connecting)/);
    await expect.poll(() => t.screen(), poll).toContain('● open');

    t.type('second after the drop');
    t.keys('Enter');
    await expect.poll(() => t.screen(), poll).toContain('echo: second after the drop');
    const screen = t.screen();
    expect(count(screen, 'echo: first over ssh')).toBe(1);
    expect(count(screen, 'echo: second after the drop')).toBe(1);

    t.keys('C-c');
    await expect.poll(() => t.screen(), poll).toContain('Ctrl+C again to quit');
    t.keys('C-c');
    await expect.poll(() => t.screen(), poll).toContain('ATTACH-EXITED rc=0');
  });
});
