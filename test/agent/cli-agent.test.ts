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
  daemon = await startFakeModelDaemon({ timeoutMs: SLOW });
  ({ state, llm } = daemon);
}, SLOW);

afterAll(() => daemon.stop());

describe('claw agent -m', () => {
  it(
    'streams the reply from the model through the daemon',
    async () => {
      llm.reply({ text: 'Hello from the fake model.' });
      const result = await runCli(['agent', '-m', 'hi there'], state.env, SLOW);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('Hello from the fake model.\n');
      expect(llm.requests.some((r) => JSON.stringify(r.body).includes('hi there'))).toBe(true);
    },
    SLOW,
  );

  it(
    'prints the final event as JSON for --json and honours --session',
    async () => {
      llm.reply({ text: 'Second answer.' });
      const result = await runCli(['agent', '-m', 'again', '--session', 'agent:main:cli:direct:me', '--json'], state.env, SLOW);
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ state: 'final', text: 'Second answer.', sessionKey: 'agent:main:cli:direct:me' });
    },
    SLOW,
  );

  it(
    'exits non-zero with what to fix when the model call fails',
    async () => {
      llm.reply({ error: 'auth' });
      const result = await runCli(['agent', '-m', 'break please', '--session', 'agent:main:cli:direct:fail'], state.env, SLOW);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('HTTP 401');
      expect(result.stderr).toContain('Once the key is fixed, resend the message');
      expect(result.stderr).not.toContain('[none]');
    },
    SLOW,
  );
});
