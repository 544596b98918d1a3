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
    models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: { contextWindow: 32_000 } } } } },
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

describe('claw context', () => {
  it('lists what fills the context window of a session', async () => {
    llm.reply({ text: 'Hi.', usage: { input: 1_200, output: 3 } });
    expect((await runCli(['agent', '-m', 'hello', '--session', 'agent:main:cli:direct:ctx'], state.env, SLOW)).code).toBe(0);
    const result = await runCli(['context', '--session', 'agent:main:cli:direct:ctx'], state.env, SLOW);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^model\s+fake\/m/m);
    expect(result.stdout).toMatch(/context\s+1,203 \/ 32k tokens \(4%, as the provider counted\)/);
    expect(result.stdout).toMatch(/AGENTS\.md\s+[\d,]+ → [\d,]+/);
    expect(result.stdout).toMatch(/compactions\s+none/);
  }, SLOW);

  it('prints the accounting as JSON with --json', async () => {
    const result = await runCli(['context', '--session', 'agent:main:cli:direct:ctx', '--json'], state.env, SLOW);
    expect(result.code).toBe(0);
    const data = JSON.parse(result.stdout) as { event: { window: number; used: number; parts: Array<{ name: string }>; thresholds: { compact: number } } };
    expect(data.event.window).toBe(32_000);
    expect(data.event.used).toBe(1_203);
    expect(data.event.thresholds.compact).toBe(16_000);
    expect(data.event.parts.map((part) => part.name)).toContain('bootstrap:AGENTS.md');
  }, SLOW);
});
