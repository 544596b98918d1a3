import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_ENTRY, runCli, runCliSync } from '../support/cli-process.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { hasTmux, TmuxTerminal, shellQuote } from './support/tmux.js';

const poll = { timeout: 20_000, interval: 100 };

describe.skipIf(!hasTmux())('claw TUI in a real terminal (tmux)', () => {
  let state: TempState | undefined;
  let term: TmuxTerminal | undefined;

  afterEach(() => {
    term?.kill();
    if (state) {
      runCliSync(['gateway', 'stop'], state.env);
      state.cleanup();
    }
    term = undefined;
    state = undefined;
  });

  it('attaches to a running gateway, chats, runs /status, survives a resize and restores the terminal on quit', { timeout: 90_000 }, async () => {
    state = makeTempState();
    // Ink only draws interactively outside CI; the terminal here is real.
    const env = Object.fromEntries(Object.entries(state.env).filter(([k]) => k !== 'CI' && !k.startsWith('CI_') && k !== 'CONTINUOUS_INTEGRATION'));
    const started = await runCli(['gateway', 'start', '--port', '0'], env);
    expect(started.code, started.stderr).toBe(0);

    const envPrefix = `env -u CI CLAW_STATE_DIR=${shellQuote(state.dir)} TERM=xterm-256color`;
    term = new TmuxTerminal(
      `printf 'BEFORE-TUI\\n'; ${envPrefix} ${shellQuote(process.execPath)} ${shellQuote(CLI_ENTRY)}; echo "TUI-EXITED rc=$?"; sleep 600`,
      { cols: 80, rows: 24 },
    );
    const t = term;

    await expect.poll(() => t.screen(), poll).toContain('● open');
    let screen = t.screen();
    expect(t.alternateScreenOn()).toBe(true);
    for (const text of ['claw ·', '❯', 'think']) expect(screen).toContain(text);
    // The first screen says there is no model, before anything is sent.
    await expect.poll(() => t.screen(), poll).toContain('No model configured');
    // Empty side panes stay hidden until asked for; Ctrl+L shows them all.
    expect(screen).not.toContain('Sub-agents');
    t.keys('C-l');
    await expect.poll(() => t.screen(), poll).toContain('Sub-agents');
    screen = t.screen();
    for (const text of ['Sessions', 'Context', 'Lanes']) expect(screen).toContain(text);
    expect(screen.split('\n').every((line) => line.length <= 80)).toBe(true);

    t.type('hello from the e2e test');
    t.keys('Enter');
    // With no model the turn fails at once; its one-line hint must leave the user's line on screen.
    await expect.poll(() => t.screen(), poll).toContain('then /retry');
    expect(t.screen()).toContain('› hello from the e2e test');

    t.type('/status');
    await expect.poll(() => t.screen(), poll).toContain('tokens used of the window');
    t.keys('Enter');
    await expect.poll(() => t.screen(), poll).toMatch(/gateway +v\d+\.\d+\.\d+ on/);

    t.resize(160, 48);
    // Wide layout: sessions on the left and context on the right share the first pane row.
    await expect
      .poll(
        () =>
          t
            .screen()
            .split('\n')
            .some((line) => line.includes('Sessions') && line.includes('Context')),
        poll,
      )
      .toBe(true);
    screen = t.screen();
    expect(screen).toContain('› hello from the e2e test');

    t.keys('C-c');
    await expect.poll(() => t.screen(), poll).toContain('Ctrl+C again to quit');
    t.keys('C-c');
    await expect.poll(() => t.screen(), poll).toContain('TUI-EXITED rc=0');
    expect(t.alternateScreenOn()).toBe(false);
    screen = t.screen();
    expect(screen).toContain('BEFORE-TUI');
    expect(screen).not.toContain('Sessions');
  });

  it('gives the terminal back when the TUI is killed with SIGTERM', { timeout: 90_000 }, async () => {
    state = makeTempState();
    const env = Object.fromEntries(Object.entries(state.env).filter(([k]) => k !== 'CI' && !k.startsWith('CI_')));
    const started = await runCli(['gateway', 'start', '--port', '0'], env);
    expect(started.code, started.stderr).toBe(0);
    const envPrefix = `env -u CI CLAW_STATE_DIR=${shellQuote(state.dir)} TERM=xterm-256color`;
    const pidFile = `${state.dir}/tui.pid`;
    // `exec` keeps the pid written by the inner shell, so the test can signal the TUI itself.
    const inner = `echo $$ > ${shellQuote(pidFile)}; exec ${envPrefix} ${shellQuote(process.execPath)} ${shellQuote(CLI_ENTRY)}`;
    term = new TmuxTerminal(`printf 'BEFORE-TUI\\n'; sh -c ${shellQuote(inner)}; echo "TUI-EXITED rc=$?"; sleep 600`, { cols: 80, rows: 24 });
    const t = term;
    await expect.poll(() => t.screen(), poll).toContain('● open');
    expect(t.alternateScreenOn()).toBe(true);
    process.kill(Number(readFileSync(pidFile, 'utf8').trim()), 'SIGTERM');
    await expect.poll(() => t.screen(), poll).toContain('TUI-EXITED rc=143');
    expect(t.alternateScreenOn()).toBe(false);
    expect(t.screen()).toContain('BEFORE-TUI');
  });
});
