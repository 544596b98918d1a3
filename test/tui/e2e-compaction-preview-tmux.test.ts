import { afterEach, describe, expect, it } from 'vitest';
import { CLI_ENTRY } from '../support/cli-process.js';
import { startFakeModelDaemon, type FakeModelDaemon } from '../support/fake-model-daemon.js';
import { kindOf, route } from '../context/context-gateway.js';
import { hasTmux, TmuxTerminal, shellQuote } from './support/tmux.js';

const poll = { timeout: 30_000, interval: 100 };
const SUMMARY = '## Decisions\n- none\n## Open TODOs\n- none\n## Constraints\n- none\n## Pending user asks\n- none\n## Exact identifiers\n- OPS-77';

describe.skipIf(!hasTmux())('the compaction preview in the TUI (tmux, fake model)', () => {
  let daemon: FakeModelDaemon | undefined;
  let term: TmuxTerminal | undefined;

  afterEach(async () => {
    term?.kill();
    await daemon?.stop();
    term = daemon = undefined;
  });

  it('shows what it will summarise; p postpones it for the turn, c compacts at once', { timeout: 120_000 }, async () => {
    daemon = await startFakeModelDaemon({
      contextWindow: 8_000,
      env: (env) => Object.fromEntries(Object.entries(env).filter(([k]) => k !== 'CI' && !k.startsWith('CI_'))),
      config: {
        tools: { profile: 'minimal' },
        compaction: { reserveTokens: 2_000, reserveTokensFloor: 2_000, keepRecentTokens: 1_000, memoryFlush: { enabled: false } },
        context: { compaction: { previewSeconds: 90 } },
      },
    });
    const { llm, state } = daemon;
    let turns = 0;
    llm.setDefault(
      route({
        // Past the compaction mark (6,000) after the third reply only.
        turn: () => ({ text: `Answer ${++turns}.`, usage: { input: turns === 3 ? 6_500 : turns > 3 ? 2_000 : 1_000 * turns, output: 10 } }),
        summary: () => ({ text: SUMMARY }),
        'identifier-retry': () => ({ text: SUMMARY }),
      }),
    );
    term = new TmuxTerminal(
      `env -u CI CLAW_STATE_DIR=${shellQuote(state.dir)} TERM=xterm-256color ${shellQuote(process.execPath)} ${shellQuote(CLI_ENTRY)}; sleep 600`,
      { cols: 120, rows: 32 },
    );
    const t = term;
    await expect.poll(() => t.screen(), poll).toContain('● open');
    for (let i = 1; i <= 3; i += 1) {
      t.type(`Message ${i} about ticket OPS-77 ${'and the rollout plan '.repeat(30)}`);
      t.keys('Enter');
      await expect.poll(() => t.screen(), poll).toContain(`Answer ${i}.`);
    }
    await expect
      .poll(() => t.screen(), poll)
      .toMatch(/⟳ Compacting in \d+s · c now · p postpone · r details — \d+ turns? \(\d+ messages\) → summary, [\d.]+k → ~[\d.]+k tokens/);
    // The turn's progress line says what it waits for, not "thinking".
    expect(t.screen()).toContain('waiting to compact (c now · p postpone)');
    t.type('r');
    await expect.poll(() => t.screen(), poll).toContain('kept verbatim: OPS-77');
    t.type('p');
    await expect.poll(() => t.screen(), poll).toContain('Compaction postponed for this turn');
    expect(t.screen()).not.toContain('⟳ Compacting');
    expect(llm.requests.filter((request) => kindOf(request) === 'summary')).toHaveLength(0);

    t.type('Message 4.');
    t.keys('Enter');
    await expect.poll(() => t.screen(), poll).toMatch(/⟳ Compacting in \d+s/);
    t.type('c');
    await expect.poll(() => t.screen(), poll).toContain('Answer 4.');
    expect(llm.requests.filter((request) => kindOf(request) === 'summary').length).toBeGreaterThan(0);
    expect(t.screen()).not.toContain('⟳ Compacting');
  });
});
