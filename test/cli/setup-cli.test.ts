import { existsSync, readFileSync, statSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ENTRY, runCli, runCliSync } from '../support/cli-process.js';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-openai-server.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

const KEY = 'sk-cli-test-5e2a9';

let state: TempState | undefined;
let llm: FakeLlmServer | undefined;
let gatewayStarted = false;

beforeAll(() => {
  if (!existsSync(CLI_ENTRY)) throw new Error('dist/ is missing: run `node scripts/ensure-build.mjs` before this test');
});

afterEach(async () => {
  if (state && gatewayStarted) runCliSync(['gateway', 'stop'], state.env);
  state?.cleanup();
  await llm?.close();
  state = undefined;
  llm = undefined;
  gatewayStarted = false;
});

async function fresh(): Promise<{ state: TempState; llm: FakeLlmServer; env: NodeJS.ProcessEnv }> {
  state = makeTempState();
  llm = await startFakeOpenAI();
  llm.requireKey(KEY);
  llm.setModels(['tiny']);
  // No real provider keys from the machine running the tests; nothing probed but the fake.
  const env: NodeJS.ProcessEnv = { ...state.env, OLLAMA_HOST: '127.0.0.1:9', CLAW_SETUP_PORTS: '9', MY_KEY: KEY };
  for (const name of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'OPENROUTER_API_KEY']) delete env[name];
  return { state, llm, env };
}

describe('claw setup --yes', () => {
  it('tests the model, then saves the key to credentials/ and the model to claw.json, with no gateway running', async () => {
    const t = await fresh();
    t.llm.reply({ text: 'ok' });
    const args = ['setup', '--provider', 'box', '--base-url', t.llm.baseUrl, '--model', 'tiny', '--key-env', 'MY_KEY', '--yes'];
    const result = await runCli(args, t.env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('✓ test request answered: "ok"');
    expect(result.stdout).toContain('Saved: box/tiny as the main model.');
    // The command to run next is a line of its own.
    expect(result.stdout.split('\n')).toContain('  claw');
    expect(result.stdout + result.stderr).not.toContain(KEY);

    const config = JSON.parse(readFileSync(t.state.paths.config, 'utf8'));
    expect(config.agents.defaults.model).toBe('box/tiny');
    expect(config.models.providers.box).toEqual({ api: 'openai', baseUrl: t.llm.baseUrl, models: { tiny: {} } });
    expect(JSON.stringify(config)).not.toContain(KEY);
    const credentials = `${t.state.paths.credentials}/box.json`;
    expect(JSON.parse(readFileSync(credentials, 'utf8'))).toEqual({ apiKey: KEY });
    expect(statSync(credentials).mode & 0o777).toBe(0o600);
  });

  it("prints the provider's own error for a wrong key and writes nothing", async () => {
    const t = await fresh();
    const env = { ...t.env, MY_KEY: 'sk-wrong' };
    const result = await runCli(['setup', '--provider', 'box', '--base-url', t.llm.baseUrl, '--model', 'tiny', '--key-env', 'MY_KEY', '--yes'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('nothing was written');
    expect(result.stderr).toMatch(/HTTP 401 \(invalid_request_error: Incorrect API key provided\.\)/);
    expect(existsSync(t.state.paths.config)).toBe(false);
    expect(existsSync(`${t.state.paths.credentials}/box.json`)).toBe(false);
  });

  it('says what is missing instead of guessing', async () => {
    const t = await fresh();
    const noKey = await runCli(['setup', '--provider', 'openai', '--model', 'gpt-4.1', '--yes'], t.env);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('openai needs an API key: add --key-env VAR');
    const unset = await runCli(['setup', '--provider', 'openai', '--model', 'gpt-4.1', '--key-env', 'NOT_SET_ANYWHERE', '--yes'], t.env);
    expect(unset.stderr).toContain('NOT_SET_ANYWHERE is not set in this shell');
    const unknown = await runCli(['setup', '--provider', 'nope', '--model', 'x', '--yes'], t.env);
    expect(unknown.stderr).toMatch(/unknown provider "nope"\. Known: openai, anthropic, openrouter/);
    const noTerminal = await runCli(['setup'], t.env);
    expect(noTerminal.stderr.split('\n')).toContain('  claw setup --provider openai --model gpt-4.1 --key-env OPENAI_API_KEY --yes');
    expect(existsSync(t.state.paths.config)).toBe(false);
  });

  it('through a running gateway: applied live, so the next message is answered without a restart; a second run adds a fallback', {
    timeout: 60_000,
  }, async () => {
    const t = await fresh();
    const started = await runCli(['gateway', 'start', '--port', '0'], t.env);
    expect(started.code, started.stderr).toBe(0);
    gatewayStarted = true;
    const pid = JSON.parse(readFileSync(`${t.state.dir}/gateway.json`, 'utf8')).pid;

    t.llm.reply({ text: 'ok' }, { text: 'hello from the fake model' });
    const setup = await runCli(
      [
        'setup',
        '--provider',
        'box',
        '--base-url',
        t.llm.baseUrl,
        '--model',
        'tiny',
        '--key-env',
        'MY_KEY',
        '--agent-name',
        'Pim',
        '--user-name',
        'Ana',
        '--yes',
        '--json',
      ],
      t.env,
    );
    expect(setup.code, setup.stderr).toBe(0);
    const saved = JSON.parse(setup.stdout);
    expect(saved).toMatchObject({ ok: true, applied: 'live', model: 'box/tiny', role: 'primary' });
    const workspace = `${t.state.dir}/workspace`;
    expect(readFileSync(`${workspace}/IDENTITY.md`, 'utf8')).toContain('- Name: Pim');
    expect(readFileSync(`${workspace}/USER.md`, 'utf8')).toContain('- What to call them: Ana');
    expect(existsSync(`${workspace}/BOOTSTRAP.md`)).toBe(false);

    const reply = await runCli(['agent', '-m', 'hi there'], t.env);
    expect(reply.code, reply.stderr).toBe(0);
    expect(reply.stdout).toContain('hello from the fake model');
    expect(JSON.parse(readFileSync(`${t.state.dir}/gateway.json`, 'utf8')).pid).toBe(pid);

    t.llm.reply({ text: 'ok' });
    const second = await runCli(
      ['setup', '--provider', 'box2', '--base-url', t.llm.baseUrl, '--model', 'tiny', '--key-env', 'MY_KEY', '--fallback', '--yes', '--json'],
      t.env,
    );
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ model: 'box2/tiny', role: 'fallback', fallbacks: ['box2/tiny'] });
  });
});
