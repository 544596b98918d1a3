import { afterEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_ENTRY } from '../support/cli-process.js';
import { startFakeModelDaemon, type FakeModelDaemon } from '../support/fake-model-daemon.js';
import { hasTmux, TmuxTerminal, shellQuote } from './support/tmux.js';

const poll = { timeout: 30_000, interval: 100 };

describe.skipIf(!hasTmux())('a full agent turn in the TUI (tmux, fake model)', () => {
  let daemon: FakeModelDaemon | undefined;
  let term: TmuxTerminal | undefined;

  afterEach(async () => {
    term?.kill();
    await daemon?.stop();
    term = undefined;
    daemon = undefined;
  });

  it('streams a reply, asks for an exec approval that y grants, shows the tool result, and lists the context', { timeout: 120_000 }, async () => {
    daemon = await startFakeModelDaemon({
      contextWindow: 64_000,
      env: (env) => Object.fromEntries(Object.entries(env).filter(([k]) => k !== 'CI' && !k.startsWith('CI_'))),
    });
    const { llm, state } = daemon;

    // `touch` is not on the read-only safe list, so the default policy asks the operator.
    llm.reply(
      { text: 'I will create the file.', toolCalls: [{ id: 'call_1', name: 'exec', arguments: { command: 'touch approved-by-tui.txt' } }] },
      { text: 'Done: the file approved-by-tui.txt exists now.' },
    );
    term = new TmuxTerminal(
      `env -u CI CLAW_STATE_DIR=${shellQuote(state.dir)} TERM=xterm-256color ${shellQuote(process.execPath)} ${shellQuote(CLI_ENTRY)}; sleep 600`,
      { cols: 100, rows: 32 },
    );
    const t = term;
    await expect.poll(() => t.screen(), poll).toContain('● open');

    t.type('please create approved-by-tui.txt');
    t.keys('Enter');
    // The approval prompt takes the keyboard and shows the exact command.
    await expect.poll(() => t.screen(), poll).toContain('y once · s this session');
    expect(t.screen()).toContain('touch approved-by-tui.txt');
    expect(existsSync(join(state.paths.workspace('main'), 'approved-by-tui.txt'))).toBe(false);

    // The prompt takes only a deliberate key: one pressed after it has been on screen for a moment.
    await new Promise((resolve) => setTimeout(resolve, 700));
    t.type('y');
    await expect.poll(() => t.screen(), poll).toContain('Done: the file approved-by-tui.txt exists now.');
    expect(existsSync(join(state.paths.workspace('main'), 'approved-by-tui.txt'))).toBe(true);
    expect(t.screen()).toContain('exec');

    t.type('/context list');
    t.keys('Enter');
    // The end of the /context list reply (the newest lines stay in view).
    await expect.poll(() => t.screen(), poll).toMatch(/tool schemas\s+\d+ tools, [\d,]+ chars/);
    expect(t.screen()).toMatch(/skills block/);
  });
});
