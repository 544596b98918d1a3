import { existsSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeRawConfig } from '../../source/config/index.js';
import { CLI_ENTRY, runCli, runCliSync } from '../support/cli-process.js';
import { startFakeOpenAI } from '../support/fake-openai-server.js';
import type { FakeLlmServer } from '../support/fake-llm-common.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

let state: TempState | undefined;
let llm: FakeLlmServer | undefined;

beforeAll(() => {
  if (!existsSync(CLI_ENTRY)) throw new Error('dist/ is missing: run `npm run build` before this test');
});

afterEach(async () => {
  if (state) {
    runCliSync(['gateway', 'stop'], state.env);
    state.cleanup();
  }
  await llm?.close();
  state = undefined;
  llm = undefined;
});

describe('claw agent -m', () => {
  it('streams the reply from the model through a real daemon, and fails with a hint when it cannot', async () => {
    llm = await startFakeOpenAI();
    state = makeTempState();
    writeRawConfig(state.paths.config, {
      models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {} } } } },
      agents: { defaults: { model: 'fake/m' } },
    });
    const started = await runCli(['gateway', 'start', '--port', '0'], state.env);
    expect(started.code).toBe(0);

    llm.reply({ text: 'Hello from the fake model.' });
    const ok = await runCli(['agent', '-m', 'hi there'], state.env);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe('Hello from the fake model.\n');
    expect(JSON.stringify(llm.requests[0]?.body)).toContain('hi there');

    llm.reply({ text: 'Second answer.' });
    const json = await runCli(['agent', '-m', 'again', '--session', 'agent:main:cli:direct:me', '--json'], state.env);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ state: 'final', text: 'Second answer.', sessionKey: 'agent:main:cli:direct:me' });

    // Not retried: a bad key fails the turn at once, with what to fix.
    llm.setDefault({ error: 'auth' });
    const failed = await runCli(['agent', '-m', 'break please'], state.env);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('claw:');
  });
});
