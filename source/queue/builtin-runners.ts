import type { TurnRunner } from './turn-runner.js';

/**
 * What the gateway runs until the agent runtime supplies a real runner: every
 * turn fails visibly, saying what to configure.
 */
export const noModelRunner: TurnRunner = {
  async run() {
    return {
      status: 'failed',
      error: 'No model configured: this gateway has no agent runtime to answer with.',
      hint: 'Set agents.defaults.model (e.g. `claw config set agents.defaults.model openai/gpt-4o-mini`) and the provider key (e.g. OPENAI_API_KEY), then restart the gateway.',
    };
  },
};

/**
 * FOR TESTS ONLY (selected by CLAW_TEST_RUNNER=echo): answers every turn at
 * once with "echo: <text>", so crash and load tests are deterministic.
 */
export const echoRunner: TurnRunner = {
  async run(turn) {
    const text = `echo: ${turn.messages.map((m) => m.text).join('\n')}`;
    const [entry] = turn.session.append({ type: 'message', role: 'assistant', content: [{ type: 'text', text }], stopReason: 'stop' });
    turn.emit('chat', { runId: turn.runId, sessionKey: turn.sessionKey, state: 'final', text, ...(entry ? { entryId: entry.id } : {}) });
    return { status: 'replied', text };
  },
};

/** The runner named by CLAW_TEST_RUNNER, if any; unknown names are an error, not a silent fallback. */
export function testRunnerFromEnv(env: NodeJS.ProcessEnv = process.env): TurnRunner | undefined {
  const name = env.CLAW_TEST_RUNNER?.trim();
  if (!name) return undefined;
  if (name === 'echo') return echoRunner;
  throw new Error(`CLAW_TEST_RUNNER="${name}" is not a test runner; the only one is "echo". Unset it for normal use.`);
}
