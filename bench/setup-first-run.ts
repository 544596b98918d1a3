// Issue 24: time from `claw` on a fresh state dir and HOME to the first answer,
// driving the real TUI in tmux through the setup step against a fake
// OpenAI-compatible server on a loopback port the detector is told about.
// Keystrokes are sent as soon as the screen asks for them, so the figures are
// the machine's share; a user adds reading and typing time on top (5 Enter
// presses and one message in this script). Prints one JSON object.
// Run: npm run build && npx tsx bench/setup-first-run.ts [--rounds N]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_ENTRY } from '../test/support/cli-process.js';
import { startFakeOpenAI } from '../test/support/fake-openai-server.js';
import { makeTempState } from '../test/support/temp-state.js';
import { TmuxTerminal } from '../test/tui/support/tmux.js';

const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 3;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

async function waitFor(term: TmuxTerminal, text: string, timeoutMs = 60_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!term.screen().includes(text)) {
    if (performance.now() > deadline) throw new Error(`"${text}" did not appear:\n${term.screen()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function oneRun(): Promise<Record<string, number>> {
  const state = makeTempState('claw-bench-setup-');
  const home = mkdtempSync(join(tmpdir(), 'claw-bench-home-'));
  const llm = await startFakeOpenAI();
  llm.setModels(['fake-small']);
  llm.reply({ text: 'ok' }, { text: 'first answer' });
  const port = new URL(llm.url).port;
  const env = `CLAW_STATE_DIR=${quote(state.dir)} HOME=${quote(home)} CLAW_SETUP_PORTS=${port} OLLAMA_HOST=127.0.0.1:9 TERM=xterm-256color`;
  const unset = ['CI', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'OPENROUTER_API_KEY', 'CLAW_GATEWAY_PORT', 'CLAW_GATEWAY_TOKEN'].map((n) => `-u ${n}`).join(' ');
  const marks: Record<string, number> = {};
  const started = performance.now();
  const mark = (name: string) => {
    marks[name] = Math.round(performance.now() - started);
  };
  const term = new TmuxTerminal(`env ${unset} ${env} ${quote(process.execPath)} ${quote(CLI_ENTRY)}; sleep 600`, { cols: 100, rows: 30 });
  try {
    await waitFor(term, 'Enter or /setup adds one');
    mark('setupOfferedMs');
    term.keys('Enter');
    await waitFor(term, `❯ OpenAI-compatible server on 127.0.0.1:${port}`);
    mark('detectedMs');
    term.keys('Enter');
    await waitFor(term, '❯ fake-small');
    mark('modelListMs');
    term.keys('Enter');
    await waitFor(term, 'answered: "ok"');
    mark('testRequestMs');
    term.keys('Enter');
    await waitFor(term, 'Optional: your name');
    term.keys('Enter');
    await waitFor(term, 'as the main model');
    mark('savedMs');
    term.keys('Enter');
    term.type('hello');
    term.keys('Enter');
    await waitFor(term, 'first answer');
    mark('firstAnswerMs');
    return marks;
  } finally {
    term.kill();
    spawnSync(process.execPath, [CLI_ENTRY, 'gateway', 'stop'], { env: state.env, stdio: 'ignore' });
    await llm.close();
    state.cleanup();
    rmSync(home, { recursive: true, force: true });
  }
}

const runs: Record<string, number>[] = [];
for (let i = 0; i < rounds; i++) runs.push(await oneRun());
const keys = Object.keys(runs[0] ?? {});
const figures = Object.fromEntries(keys.map((k) => [k, median(runs.map((r) => r[k] ?? Number.NaN))]));
process.stdout.write(
  `${JSON.stringify({ bench: 'setup-first-run', rounds, medians: figures, runs, scriptedKeystrokes: '7 × Enter and the word "hello"', targetMs: 60_000, load1: loadavg()[0] }, null, 2)}\n`,
);
