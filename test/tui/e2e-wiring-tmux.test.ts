import { afterEach, describe, expect, it } from 'vitest';
import { CLI_ENTRY, runCli, runCliSync } from '../support/cli-process.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { hasTmux, TmuxTerminal, shellQuote } from './support/tmux.js';

/*
 * These need the daemon wiring of issue 15 (see source/tui/README.md, "What
 * the gateway must do"): the `message.accepted` event emitted when inbound
 * accepts a message, and `sessionsSearchHandler` mounted as `sessions.search`.
 */
const poll = { timeout: 20_000, interval: 100 };
const withoutCi = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(env).filter(([k]) => k !== 'CI' && !k.startsWith('CI_') && k !== 'CONTINUOUS_INTEGRATION'));

describe.skipIf(!hasTmux())('two clients and search on a real gateway (tmux)', () => {
  let state: TempState | undefined;
  const terms: TmuxTerminal[] = [];

  afterEach(() => {
    for (const t of terms.splice(0)) t.kill();
    if (state) {
      runCliSync(['gateway', 'stop'], state.env);
      state.cleanup();
    }
    state = undefined;
  });

  async function tui(): Promise<TmuxTerminal> {
    if (!state) {
      state = makeTempState();
      const started = await runCli(['gateway', 'start', '--port', '0'], withoutCi(state.env));
      expect(started.code, started.stderr).toBe(0);
    }
    const t = new TmuxTerminal(
      `env -u CI TERM=xterm-256color CLAW_STATE_DIR=${shellQuote(state.dir)} ${shellQuote(process.execPath)} ${shellQuote(CLI_ENTRY)}; sleep 600`,
      { cols: 100, rows: 30 },
    );
    terms.push(t);
    await expect.poll(() => t.screen(), poll).toContain('● open');
    return t;
  }

  it('each attached client shows the messages the other sends, as they are accepted', { timeout: 90_000 }, async () => {
    const a = await tui();
    const b = await tui();
    a.type('hello from the first client');
    a.keys('Enter');
    await expect.poll(() => b.screen(), poll).toContain('› hello from the first client');
    b.type('and hello back');
    b.keys('Enter');
    await expect.poll(() => a.screen(), poll).toContain('› and hello back');
    // Each sees its own line once.
    expect(
      a
        .screen()
        .split('\n')
        .filter((l) => l.includes('› hello from the first client')),
    ).toHaveLength(1);
  });

  it('Ctrl+F finds a message in another session and Enter jumps there', { timeout: 90_000 }, async () => {
    const t = await tui();
    const other = 'agent:main:telegram:direct:7';
    const sent = await runCli(['message', 'send', '--session', other, 'the unicorn budget is 投资目标 approved', '--timeout', '5'], withoutCi(state!.env));
    expect(sent.stderr).not.toMatch(/not a session key/);
    t.type('nothing to see here');
    t.keys('Enter');
    await expect.poll(() => t.screen(), poll).toContain('› nothing to see here');
    t.keys('C-f');
    await expect.poll(() => t.screen(), poll).toContain('Search all sessions');
    t.type('unicorn');
    t.keys('Enter');
    await expect.poll(() => t.screen(), poll).toMatch(/Search "unicorn": 1 hit/);
    t.keys('Enter');
    await expect.poll(() => t.screen().split('\n')[0], poll).toContain(other);
    expect(t.screen()).toContain('› the unicorn budget is 投资目标 approved');
  });
});
