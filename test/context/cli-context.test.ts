import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli-process.js';
import type { FakeLlmServer } from '../support/fake-llm-common.js';
import { startFakeModelDaemon, type FakeModelDaemon } from '../support/fake-model-daemon.js';
import type { TempState } from '../support/temp-state.js';

// Child processes on a loaded 2-core machine: generous limits, no timing asserts.
const SLOW = 90_000;
let daemon: FakeModelDaemon;
let state: TempState;
let llm: FakeLlmServer;

beforeAll(async () => {
  daemon = await startFakeModelDaemon({ contextWindow: 32_000, timeoutMs: SLOW });
  ({ state, llm } = daemon);
}, SLOW);

afterAll(() => daemon.stop());

describe('claw context', () => {
  it(
    'lists what fills the context window of a session',
    async () => {
      llm.reply({ text: 'Hi.', usage: { input: 1_200, output: 3 } });
      expect((await runCli(['agent', '-m', 'hello', '--session', 'agent:main:cli:direct:ctx'], state.env, SLOW)).code).toBe(0);
      const result = await runCli(['context', '--session', 'agent:main:cli:direct:ctx'], state.env, SLOW);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^model\s+fake\/m/m);
      expect(result.stdout).toMatch(/context\s+1\.2k \/ 32k tokens \(4%, as the provider counted\)/);
      expect(result.stdout).toMatch(/AGENTS\.md\s+[\d,]+ → [\d,]+/);
      expect(result.stdout).toMatch(/compactions\s+none/);
    },
    SLOW,
  );

  it(
    'prints the accounting as JSON with --json',
    async () => {
      const result = await runCli(['context', '--session', 'agent:main:cli:direct:ctx', '--json'], state.env, SLOW);
      expect(result.code).toBe(0);
      const data = JSON.parse(result.stdout) as { event: { window: number; used: number; parts: Array<{ name: string }>; thresholds: { compact: number } } };
      expect(data.event.window).toBe(32_000);
      expect(data.event.used).toBe(1_203);
      expect(data.event.thresholds.compact).toBe(16_000);
      expect(data.event.parts.map((part) => part.name)).toContain('bootstrap:AGENTS.md');
    },
    SLOW,
  );
});
