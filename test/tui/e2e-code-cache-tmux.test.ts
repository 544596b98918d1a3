import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_ENTRY, runCli, runCliSync } from '../support/cli-process.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { hasTmux, TmuxTerminal, shellQuote } from './support/tmux.js';

const poll = { timeout: 20_000, interval: 100 };

describe.skipIf(!hasTmux())('the TUI code cache (tmux)', () => {
  let state: TempState | undefined;
  let term: TmuxTerminal | undefined;

  afterEach(() => {
    term?.kill();
    term = undefined;
    if (state) {
      runCliSync(['gateway', 'stop'], state.env);
      state.cleanup();
    }
    state = undefined;
  });

  /** `claw` in tmux until it shows the open connection; quit() leaves it with Ctrl+C twice. */
  async function open(s: TempState): Promise<{ quit(): Promise<void> }> {
    term?.kill();
    const t = new TmuxTerminal(
      `env -u CI TERM=xterm-256color CLAW_STATE_DIR=${shellQuote(s.dir)} ${shellQuote(process.execPath)} ${shellQuote(CLI_ENTRY)}; echo "TUI-EXITED rc=$?"; sleep 600`,
      { cols: 80, rows: 24 },
    );
    term = t;
    await expect.poll(() => t.screen(), poll).toContain('● open');
    return {
      async quit() {
        t.keys('C-c');
        await expect.poll(() => t.screen(), poll).toContain('Ctrl+C again to quit');
        t.keys('C-c');
        await expect.poll(() => t.screen(), poll).toContain('TUI-EXITED rc=0');
      },
    };
  }

  it('is written two seconds into the first TUI and used as it is by the next one, which still chats', { timeout: 90_000 }, async () => {
    state = makeTempState();
    const env: NodeJS.ProcessEnv = { ...state.env, CLAW_TEST_RUNNER: 'echo' };
    delete env.CI;
    expect((await runCli(['gateway', 'start', '--port', '0'], env)).code).toBe(0);
    const file = join(state.dir, 'cache', 'code', 'tui-run.bin');

    const first = await open(state);
    await expect.poll(() => existsSync(file), poll).toBe(true);
    expect(readFileSync(file, 'latin1').startsWith('claw-code-cache ')).toBe(true);
    await first.quit();
    const written = statSync(file);

    const second = await open(state);
    term!.type('from the cached TUI');
    term!.keys('Enter');
    await expect.poll(() => term!.screen(), poll).toContain('echo: from the cached TUI');
    // Past the moment it would write a cache it had to compile without.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    await second.quit();
    const after = statSync(file);
    expect([after.ino, after.mtimeMs]).toEqual([written.ino, written.mtimeMs]);
  });
});
