import { existsSync } from 'node:fs';
import { join } from 'node:path';
import stringWidth from 'string-width';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_ENTRY, runCli, runCliSync } from '../support/cli-process.js';
import { startFakeModelDaemon, type FakeModelDaemon } from '../support/fake-model-daemon.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { hasTmux, TmuxTerminal, shellQuote } from './support/tmux.js';

const poll = { timeout: 20_000, interval: 100 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const withoutCi = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(env).filter(([k]) => k !== 'CI' && !k.startsWith('CI_') && k !== 'CONTINUOUS_INTEGRATION'));
/** The input row of the screen (the line with the prompt). */
const inputLine = (screen: string): string => screen.split('\n').find((line) => line.startsWith('❯')) ?? '';

describe.skipIf(!hasTmux())('keys and layout in a real terminal (tmux)', () => {
  let state: TempState | undefined;
  let daemon: FakeModelDaemon | undefined;
  let term: TmuxTerminal | undefined;

  afterEach(async () => {
    term?.kill();
    if (state) {
      runCliSync(['gateway', 'stop'], state.env);
      state.cleanup();
    }
    await daemon?.stop();
    term = undefined;
    state = undefined;
    daemon = undefined;
  });

  async function startGateway(): Promise<TempState> {
    state = makeTempState();
    const started = await runCli(['gateway', 'start', '--port', '0'], withoutCi(state.env));
    expect(started.code, started.stderr).toBe(0);
    return state;
  }

  for (const termName of ['xterm-256color', 'tmux-256color', undefined]) {
    it(`Backspace deletes backwards and Delete forwards with TERM=${termName ?? '(unset)'}`, { timeout: 60_000 }, async () => {
      const s = await startGateway();
      const termEnv = termName ? `TERM=${termName}` : '-u TERM';
      term = new TmuxTerminal(`env -u CI ${termEnv} CLAW_STATE_DIR=${shellQuote(s.dir)} ${shellQuote(process.execPath)} ${shellQuote(CLI_ENTRY)}; sleep 600`, {
        cols: 80,
        rows: 24,
      });
      const t = term;
      await expect.poll(() => t.screen(), poll).toContain('● open');
      t.type('abc');
      await expect.poll(() => inputLine(t.screen()), poll).toBe('❯ abc');
      t.keys('Left', 'Left', 'BSpace');
      await expect.poll(() => inputLine(t.screen()), poll).toBe('❯ bc');
      t.keys('End', 'BSpace');
      await expect.poll(() => inputLine(t.screen()), poll).toBe('❯ b');
      t.type('xyz');
      t.keys('Left', 'Left', 'DC');
      await expect.poll(() => inputLine(t.screen()), poll).toBe('❯ bxz');
    });
  }

  it('keeps every row within 80×24 with ZWJ and skin-tone emoji on screen, all panes shown', { timeout: 60_000 }, async () => {
    const s = await startGateway();
    term = new TmuxTerminal(
      `env -u CI TERM=xterm-256color CLAW_STATE_DIR=${shellQuote(s.dir)} ${shellQuote(process.execPath)} ${shellQuote(CLI_ENTRY)}; sleep 600`,
      { cols: 80, rows: 24 },
    );
    const t = term;
    await expect.poll(() => t.screen(), poll).toContain('● open');
    t.keys('C-l');
    await expect.poll(() => t.screen(), poll).toContain('Sessions');
    t.type('family 👨‍👩‍👧 thumbs 👍🏽👍🏿 heart ❤️ flag 🇫🇷 投资目标 '.repeat(3));
    t.keys('Enter');
    await expect.poll(() => t.screen(), poll).toContain('then /retry');
    const rows = t.screen().split('\n');
    expect(rows[0]).toContain('claw ·');
    expect(rows.some((row) => row.includes('› family'))).toBe(true);
    for (const row of rows) expect(stringWidth(row), row).toBeLessThanOrEqual(80);
    // Each pane border sits in one column on every body row: nothing was pushed right.
    const borders = rows.slice(1, 12).map((row) => [...row].indexOf('│'));
    expect(new Set(borders.filter((i) => i >= 0)).size).toBe(1);
  });

  it('does not let typing answer an approval that arrives mid-word; a deliberate key does', { timeout: 120_000 }, async () => {
    daemon = await startFakeModelDaemon({ env: withoutCi });
    const { llm } = daemon;
    llm.reply({ text: 'Creating it.', toolCalls: [{ id: 'call_1', name: 'exec', arguments: { command: 'touch guarded.txt' } }] }, { text: 'Done.' });
    term = new TmuxTerminal(
      `env -u CI TERM=xterm-256color CLAW_STATE_DIR=${shellQuote(daemon.state.dir)} ${shellQuote(process.execPath)} ${shellQuote(CLI_ENTRY)}; sleep 600`,
      { cols: 100, rows: 32 },
    );
    const t = term;
    await expect.poll(() => t.screen(), poll).toContain('● open');
    t.type('please create guarded.txt');
    t.keys('Enter');
    // Enter and the next letter in one read would be a pasted newline; a person is not that fast.
    await expect.poll(() => t.screen(), poll).toContain('› please create guarded.txt');
    // Keep typing the next message at ~15 keys/s; the prompt arrives somewhere in the middle.
    const words = 'something else: yes, sure, always say no ';
    let typed = '';
    for (let i = 0; i < 3; i++) {
      for (const ch of words) {
        t.type(ch);
        typed += ch;
        await sleep(60);
      }
    }
    await expect.poll(() => t.screen(), poll).toContain('y once · s this session');
    const file = join(daemon.state.paths.workspace('main'), 'guarded.txt');
    expect(existsSync(file)).toBe(false);
    expect(t.screen()).toContain('went to your draft');
    // The draft underneath kept every key (the input shows its end).
    expect(t.screen().replace(/\s+/g, ' ')).toContain(typed.trim().slice(-20));
    await sleep(800);
    t.type('y');
    await expect.poll(() => t.screen(), poll).toContain('Done.');
    expect(existsSync(file)).toBe(true);
  });
});
