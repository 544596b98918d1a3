import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeRawConfig } from '../../source/config/index.js';
import { CLI_ENTRY, runCli, runCliSync } from '../support/cli-process.js';
import { startFakeOpenAI } from '../support/fake-openai-server.js';
import type { FakeLlmServer } from '../support/fake-llm-common.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

// Child processes on a loaded 2-core machine: generous limits, no timing asserts.
const SLOW = 90_000;
let state: TempState;
let llm: FakeLlmServer;

beforeAll(async () => {
  if (!existsSync(CLI_ENTRY)) throw new Error('dist/ is missing: run `npm run build` before this test');
  llm = await startFakeOpenAI();
  state = makeTempState();
  writeRawConfig(state.paths.config, {
    models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {} } } } },
    agents: { defaults: { model: 'fake/m' } },
  });
  const started = await runCli(['gateway', 'start', '--port', '0'], state.env, SLOW);
  if (started.code !== 0) throw new Error(`gateway start failed: ${started.stderr}`);
}, SLOW);

afterAll(async () => {
  runCliSync(['gateway', 'stop'], state.env);
  state.cleanup();
  await llm.close();
});

describe('claw agent -m', () => {
  it('streams the reply from the model through the daemon', async () => {
    llm.reply({ text: 'Hello from the fake model.' });
    const result = await runCli(['agent', '-m', 'hi there'], state.env, SLOW);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Hello from the fake model.\n');
    expect(llm.requests.some((r) => JSON.stringify(r.body).includes('hi there'))).toBe(true);
  }, SLOW);

  it('prints the final event as JSON for --json and honours --session', async () => {
    llm.reply({ text: 'Second answer.' });
    const result = await runCli(['agent', '-m', 'again', '--session', 'agent:main:cli:direct:me', '--json'], state.env, SLOW);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ state: 'final', text: 'Second answer.', sessionKey: 'agent:main:cli:direct:me' });
  }, SLOW);

  it('exits non-zero with what to fix when the model call fails', async () => {
    llm.reply({ error: 'auth' });
    const result = await runCli(['agent', '-m', 'break please', '--session', 'agent:main:cli:direct:fail'], state.env, SLOW);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('HTTP 401');
    expect(result.stderr).toContain('Fix the key');
  }, SLOW);
});
