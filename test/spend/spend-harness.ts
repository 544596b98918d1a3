import { startFakeOpenAI } from '../support/fake-openai-server.js';
import type { FakeLlmServer } from '../support/fake-llm-common.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { ManualClock } from '../support/manual-clock.js';
import { quiesce } from '../schedule/schedule-harness.js';

/** A priced model: $1 per million input tokens, $4 per million output, at most 1,000 output tokens a call. */
export const PRICE = { input: 1, output: 4 };
export const MAX_OUTPUT = 1000;

export interface SpendGateway extends TestGateway {
  llm: FakeLlmServer;
  clock: ManualClock;
  quiesce(): Promise<void>;
}

/** A real gateway and agent runtime on a manual clock, answering through a fake OpenAI server that reports usage. */
export async function startSpendGateway(budgets: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<SpendGateway> {
  const llm = await startFakeOpenAI();
  const clock = new ManualClock();
  const gateway = await startTestGateway({
    config: {
      models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: { maxOutput: MAX_OUTPUT, cost: PRICE } } } } },
      agents: { defaults: { model: 'fake/m', heartbeat: { every: '0' } } },
      budgets,
      ...extra,
    },
    core: { clock },
  });
  const stop = gateway.stop.bind(gateway);
  return Object.assign(gateway, {
    llm,
    clock,
    quiesce: () => quiesce(gateway.core),
    async stop() {
      await stop();
      await llm.close();
    },
  });
}
