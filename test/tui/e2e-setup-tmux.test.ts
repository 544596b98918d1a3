import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_ENTRY, runCliSync } from '../support/cli-process.js';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-openai-server.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { hasTmux, TmuxTerminal, shellQuote } from './support/tmux.js';

const poll = { timeout: 30_000, interval: 100 };

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe.skipIf(!hasTmux())('first run in the TUI (tmux, fresh state dir and HOME)', () => {
  let state: TempState | undefined;
  let home: string | undefined;
  let llm: FakeLlmServer | undefined;
  let term: TmuxTerminal | undefined;

  afterEach(async () => {
    term?.kill();
    if (state) {
      runCliSync(['gateway', 'stop'], state.env);
      state.cleanup();
    }
    if (home) rmSync(home, { recursive: true, force: true });
    await llm?.close();
    term = undefined;
    state = undefined;
    home = undefined;
    llm = undefined;
  });

  it('offers setup, finds the local server, tests it, saves it, and the first message is answered without a restart', { timeout: 150_000 }, async () => {
    if (!existsSync(CLI_ENTRY)) throw new Error('dist/ is missing: run `node scripts/ensure-build.mjs` before this test');
    state = makeTempState();
    home = mkdtempSync(join(tmpdir(), 'claw-home-'));
    llm = await startFakeOpenAI();
    llm.setModels(['fake-small']);
    const port = new URL(llm.url).port;
    const noOllama = await closedPort();
    const env = [
      `CLAW_STATE_DIR=${shellQuote(state.dir)}`,
      `HOME=${shellQuote(home)}`,
      `CLAW_SETUP_PORTS=${port}`,
      `OLLAMA_HOST=127.0.0.1:${noOllama}`,
      // The gateway `claw` starts takes a free port, never the default one another test's gateway may hold.
      'CLAW_GATEWAY_PORT=0',
      'TERM=xterm-256color',
    ].join(' ');
    const unset = ['CI', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'OPENROUTER_API_KEY', 'GEMINI_API_KEY', 'GROQ_API_KEY', 'CLAW_GATEWAY_TOKEN']
      .map((name) => `-u ${name}`)
      .join(' ');
    const startedAt = performance.now();
    term = new TmuxTerminal(`env ${unset} ${env} ${shellQuote(process.execPath)} ${shellQuote(CLI_ENTRY)}; echo "TUI-EXITED rc=$?"; sleep 600`, {
      cols: 100,
      rows: 30,
    });
    const t = term;

    // The first screen says there is no model and offers setup; the footer invents none.
    await expect.poll(() => t.screen(), poll).toContain('No model configured. Enter or /setup adds one.');
    expect(t.screen()).toContain(' no model ·');
    expect(t.screen()).not.toContain('default model');
    const pid = JSON.parse(readFileSync(join(state.dir, 'gateway.json'), 'utf8')).pid;

    t.keys('Enter');
    await expect.poll(() => t.screen(), poll).toContain('Set up a model');
    // The detected server is the first choice, already highlighted.
    await expect.poll(() => t.screen(), poll).toContain(`❯ OpenAI-compatible server on 127.0.0.1:${port} — 1 model (fake-small)  ← found`);
    t.keys('Enter');
    await expect.poll(() => t.screen(), poll).toContain('❯ fake-small');

    llm.reply({ text: 'ok' }, { text: 'Hello from the model you just set up.' });
    t.keys('Enter');
    await expect.poll(() => t.screen(), poll).toContain(`✓ local-${port}/fake-small answered: "ok"`);
    t.keys('Enter');
    await expect.poll(() => t.screen(), poll).toContain('Optional: your name');
    t.keys('Enter');
    await expect.poll(() => t.screen(), poll).toContain(`Saved local-${port}/fake-small as the main model`);
    t.keys('Enter');

    await expect.poll(() => t.screen(), poll).not.toContain('Set up a model');
    t.type('hello there');
    t.keys('Enter');
    await expect.poll(() => t.screen(), poll).toContain('Hello from the model you just set up.');
    const firstAnswerMs = Math.round(performance.now() - startedAt);
    expect(t.screen()).toContain(`local-${port}/fake-small`);
    expect(t.screen()).not.toContain('No model configured');
    // Same gateway process throughout: nothing needed a restart.
    expect(JSON.parse(readFileSync(join(state.dir, 'gateway.json'), 'utf8')).pid).toBe(pid);
    expect(llm.requests.map((r) => r.body.model)).toEqual(['fake-small', 'fake-small']);
    const config = JSON.parse(readFileSync(state.paths.config, 'utf8'));
    expect(config.agents.defaults.model).toBe(`local-${port}/fake-small`);
    process.stdout.write(`${JSON.stringify({ bench: 'tui-first-run-to-first-answer', ms: firstAnswerMs })}\n`);
  });
});
