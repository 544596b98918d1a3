import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_ENTRY } from '../support/cli-process.js';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-openai-server.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { hasTmux, TmuxTerminal, shellQuote } from '../tui/support/tmux.js';

const poll = { timeout: 30_000, interval: 100 };
const KEY = 'sk-interactive-hidden-77';

describe.skipIf(!hasTmux())('claw setup in a terminal (tmux)', () => {
  let state: TempState | undefined;
  let home: string | undefined;
  let llm: FakeLlmServer | undefined;
  let term: TmuxTerminal | undefined;

  afterEach(async () => {
    term?.kill();
    state?.cleanup();
    if (home) rmSync(home, { recursive: true, force: true });
    await llm?.close();
    term = state = home = llm = undefined;
  });

  it('lists the detected server first, takes a custom URL and a hidden key, tests, saves, and skips the optional steps', { timeout: 90_000 }, async () => {
    if (!existsSync(CLI_ENTRY)) throw new Error('dist/ is missing: run `node scripts/ensure-build.mjs` before this test');
    state = makeTempState();
    home = mkdtempSync(join(tmpdir(), 'claw-home-'));
    llm = await startFakeOpenAI();
    llm.setModels(['fake-small']);
    const port = new URL(llm.url).port;
    const env = `CLAW_STATE_DIR=${shellQuote(state.dir)} HOME=${shellQuote(home)} CLAW_SETUP_PORTS=${port} OLLAMA_HOST=127.0.0.1:9 TERM=xterm-256color`;
    const unset = ['CI', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'OPENROUTER_API_KEY', 'GEMINI_API_KEY', 'GROQ_API_KEY'].map((n) => `-u ${n}`).join(' ');
    term = new TmuxTerminal(`env ${unset} ${env} ${shellQuote(process.execPath)} ${shellQuote(CLI_ENTRY)} setup; echo "SETUP-EXITED rc=$?"; sleep 600`, {
      cols: 160,
      rows: 40,
    });
    const t = term;
    await expect.poll(() => t.screen(), poll).toContain('Provider [1]:');
    const screen = t.screen();
    expect(screen).toContain(`   1) OpenAI-compatible server on 127.0.0.1:${port} — 1 model (fake-small)  ← found`);
    const custom = /(\d+)\) Any OpenAI-compatible URL/.exec(screen)?.[1];
    expect(custom).toBeDefined();

    // The same server through "any URL", now asking for a key.
    llm.requireKey(KEY);
    t.type(custom!);
    t.keys('Enter');
    await expect.poll(() => t.screen(), poll).toContain('Base URL');
    t.type(llm.url);
    t.keys('Enter');
    await expect.poll(() => t.screen(), poll).toContain('API key, if the server needs one (input hidden');
    t.type(KEY);
    t.keys('Enter');
    await expect.poll(() => t.screen(), poll).toContain('Model (number or id) [1]:');
    expect(t.screen()).not.toContain(KEY);

    llm.reply({ text: 'ok' });
    t.keys('Enter');
    await expect.poll(() => t.screen(), poll).toContain(`✓ local-${port}/fake-small answered in`);
    await expect.poll(() => t.screen(), poll).toContain("The assistant's name:");
    t.keys('Enter');
    await expect.poll(() => t.screen(), poll).toContain('Your name:');
    t.keys('Enter');
    await expect.poll(() => t.screen(), poll).toContain('(claw gateway install)? [y/N]');
    t.keys('Enter');
    await expect.poll(() => t.screen(), poll).toContain('SETUP-EXITED rc=0');
    const done = t.screen();
    expect(done).toContain(`Saved: local-${port}/fake-small as the main model.`);
    expect(done).not.toContain(KEY);
    expect(JSON.parse(readFileSync(join(state.paths.credentials, `local-${port}.json`), 'utf8'))).toEqual({ apiKey: KEY });
    expect(JSON.parse(readFileSync(state.paths.config, 'utf8')).agents.defaults.model).toBe(`local-${port}/fake-small`);
    // Skipped names leave the first-run questions to the agent.
    expect(existsSync(join(state.dir, 'workspace', 'IDENTITY.md'))).toBe(false);
  });
});
