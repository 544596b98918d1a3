import { existsSync } from 'node:fs';
import { writeRawConfig } from '../../source/config/index.js';
import { CLI_ENTRY, runCli, runCliSync } from './cli-process.js';
import { startFakeOpenAI } from './fake-openai-server.js';
import type { FakeLlmServer } from './fake-llm-common.js';
import { makeTempState, type TempState } from './temp-state.js';

export interface FakeModelDaemon {
  llm: FakeLlmServer;
  state: TempState;
  /** Stops the gateway, removes the state dir, closes the fake model. */
  stop(): Promise<void>;
}

/**
 * A real gateway child process (`claw gateway start --port 0`) in a fresh
 * state dir, whose default model `fake/m` is a fake OpenAI-compatible server.
 * `env` filters what the gateway inherits (e.g. dropping CI for the TUI).
 */
export async function startFakeModelDaemon(
  options: { contextWindow?: number; env?: (env: NodeJS.ProcessEnv) => NodeJS.ProcessEnv; timeoutMs?: number; config?: Record<string, unknown> } = {},
): Promise<FakeModelDaemon> {
  if (!existsSync(CLI_ENTRY)) throw new Error('dist/ is missing: run `npm run build` before this test');
  const llm = await startFakeOpenAI();
  const state = makeTempState();
  const model = options.contextWindow === undefined ? {} : { contextWindow: options.contextWindow };
  writeRawConfig(state.paths.config, {
    models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: model } } } },
    agents: { defaults: { model: 'fake/m' } },
    ...options.config,
  });
  const env = options.env ? options.env(state.env) : state.env;
  const started = await runCli(['gateway', 'start', '--port', '0'], env, options.timeoutMs ?? 30_000);
  if (started.code !== 0) {
    state.cleanup();
    await llm.close();
    throw new Error(`gateway start failed: ${started.stderr}`);
  }
  return {
    llm,
    state,
    async stop() {
      runCliSync(['gateway', 'stop'], state.env);
      state.cleanup();
      await llm.close();
    },
  };
}
