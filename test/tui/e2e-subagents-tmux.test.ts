import { afterEach, describe, expect, it } from 'vitest';
import { CLI_ENTRY } from '../support/cli-process.js';
import type { RecordedRequest } from '../support/fake-llm-common.js';
import { startFakeModelDaemon, type FakeModelDaemon } from '../support/fake-model-daemon.js';
import { calledSince, isChildRequest, lastUserText, messagesOf, textOf } from '../subagents/subagents-harness.js';
import { hasTmux, TmuxTerminal, shellQuote } from './support/tmux.js';

const poll = { timeout: 30_000, interval: 100 };

/**
 * The parent spawns "quick" and "slow"; quick answers after a while (so both
 * show running first), slow never does until it is cancelled; the parent
 * answers each result it hears.
 */
function script(request: RecordedRequest) {
  if (isChildRequest(request)) {
    const task = textOf(messagesOf(request).find((m) => m.role === 'user'));
    return task.includes('"slow"') ? { hang: true } : { text: 'the quick finding', delayMs: 1500 };
  }
  const user = lastUserText(request);
  if (user.includes('[subagent_result]')) {
    if (user.includes('"quick" · done')) return { text: 'Heard back from quick: the quick finding.' };
    if (user.includes('"slow" · cancelled')) return { text: 'Noted: slow was cancelled.' };
    return { text: 'Heard something else.' };
  }
  if (!calledSince(request, 'sessions_spawn'))
    return { toolCalls: ['quick', 'slow'].map((label) => ({ name: 'sessions_spawn', arguments: { task: `work on ${label}`, label } })) };
  return { text: 'Two helpers are on it.' };
}

describe.skipIf(!hasTmux())('the sub-agent tree in the TUI (tmux, fake model)', () => {
  let daemon: FakeModelDaemon | undefined;
  let term: TmuxTerminal | undefined;

  afterEach(async () => {
    term?.kill();
    await daemon?.stop();
    term = undefined;
    daemon = undefined;
  });

  it('shows both children running with their labels, one done, the parent answering it, and cancels the other from the pane', {
    timeout: 150_000,
  }, async () => {
    daemon = await startFakeModelDaemon({
      env: (env) => Object.fromEntries(Object.entries(env).filter(([k]) => k !== 'CI' && !k.startsWith('CI_'))),
    });
    const { llm, state } = daemon;
    llm.setDefault(script);
    term = new TmuxTerminal(
      `env -u CI CLAW_STATE_DIR=${shellQuote(state.dir)} TERM=xterm-256color ${shellQuote(process.execPath)} ${shellQuote(CLI_ENTRY)}; sleep 600`,
      { cols: 120, rows: 36 },
    );
    const t = term;
    await expect.poll(() => t.screen(), poll).toContain('● open');

    t.type('split the work in two');
    t.keys('Enter');
    // The pane opens by itself with both children running.
    await expect.poll(() => t.screen(), poll).toContain('Sub-agents');
    await expect.poll(() => t.screen(), poll).toMatch(/▶ quick \d+s[\s\S]*▶ slow \d+s/);
    // The parent's answer follows its spawn calls; on a loaded machine the tree can be drawn first.
    await expect.poll(() => t.screen(), poll).toContain('Two helpers are on it.');

    // quick finishes: the tree marks it done and delivered, and the parent's answer to it is in the chat.
    await expect.poll(() => t.screen(), poll).toMatch(/✓ quick \d+s · ✓ delivered/);
    await expect.poll(() => t.screen(), poll).toContain('Heard back from quick: the quick finding.');
    expect(t.screen()).toMatch(/▶ slow \d+s/);

    // Tab to the pane (its key hint shows when it has the focus; the pane is narrow, so only the start of it), down to slow, c cancels it.
    for (let i = 0; i < 8 && !t.screen().includes('↑↓ pick'); i += 1) {
      t.keys('Tab');
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
    expect(t.screen()).toContain('↑↓ pick');
    t.keys('Down');
    await new Promise((resolve) => setTimeout(resolve, 300));
    t.type('c');
    await expect.poll(() => t.screen(), poll).toMatch(/■ slow \d+s/);
    await expect.poll(() => t.screen(), poll).toContain('Noted: slow was cancelled.');
    expect(t.screen()).toMatch(/✓ quick \d+s/);
  });
});
