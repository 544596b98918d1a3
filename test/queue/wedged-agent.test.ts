import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentRuntime } from '../../source/agent/index.js';
import { configSchema } from '../../source/config/index.js';
import { agentTurnRunner } from '../../source/core/index.js';
import { createProviders } from '../../source/providers/index.js';
import type { TurnRunner } from '../../source/queue/index.js';
import { ToolRegistry, type ApprovalGate } from '../../source/tools/index.js';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-openai-server.js';
import { laneHarness, type LaneHarness } from './lane-harness.js';

let h: LaneHarness | undefined;
let llm: FakeLlmServer | undefined;
afterEach(async () => {
  await h?.close();
  await llm?.close();
  h = undefined;
  llm = undefined;
});

const refusingGate: ApprovalGate = {
  async request() {
    throw new Error('no tool asks for approval in this test');
  },
  approvedForSession: () => false,
};

const key = (name: string): string => `agent:main:direct:${name}`;

/**
 * Real lanes, the real agent runtime and real providers (sharing the lanes'
 * manual clock) against a fake OpenAI server: messages that say "wedged"
 * get a stream of keep-alives or a stream that stops after its first chunk.
 */
async function wedgedGateway(defaults: Record<string, unknown> = {}): Promise<{ h: LaneHarness; llm: FakeLlmServer }> {
  const server = await startFakeOpenAI();
  server.setDefault((request) => {
    const text = JSON.stringify(request.body.messages);
    if (text.includes('wedged-keepalive')) return { keepAliveEveryMs: 50 };
    if (text.includes('wedged-silent')) return { hang: true };
    // Real data, one character every 200 ms: never idle, never done.
    if (text.includes('wedged-trickle')) return { text: 'x'.repeat(10_000), chunkSize: 1, delayMs: 200 };
    return { text: 'answered' };
  });
  let runner: TurnRunner | undefined;
  const harness = laneHarness({ run: (turn) => runner!.run(turn) }, { lanes: { main: 4 } });
  const config = configSchema.parse({
    models: { providers: { fake: { api: 'openai', baseUrl: server.baseUrl, models: { m: {} } } } },
    agents: { defaults: { model: 'fake/m', ...defaults } },
  });
  const providers = createProviders({ config, paths: harness.state.paths, env: { OLLAMA_HOST: '127.0.0.1:9' }, clock: harness.clock, random: () => 0.5 });
  const runtime = new AgentRuntime({
    config,
    paths: harness.state.paths,
    providers,
    registry: new ToolRegistry(),
    approvals: () => refusingGate,
    clock: harness.clock,
  });
  runner = agentTurnRunner(runtime);
  return { h: harness, llm: server };
}

describe('wedged providers through the agent', () => {
  it('a wedged turn ends with a visible error within turnTimeoutSeconds whatever the wedge: keep-alives, headers then silence, a trickle', async () => {
    ({ h, llm } = await wedgedGateway({ turnTimeoutSeconds: 2 }));
    const started = Date.now();
    for (const [id, name, text] of [
      ['k', 'a', 'wedged-keepalive'],
      ['s', 'b', 'wedged-silent'],
      ['t', 'c', 'wedged-trickle'],
    ] as const) {
      h.lanes.enqueue({ ...h.message(id, { key: key(name) }), text });
    }
    // The bound is the turn's limit (agents.defaults.turnTimeoutSeconds, here 2 s), with room for a loaded machine.
    await vi.waitFor(() => expect(h!.outcomes).toHaveLength(3), { timeout: 8_000, interval: 50 });
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(h.outcomes.map((outcome) => `${outcome.messageId} ${outcome.status}`).sort()).toEqual(['k failed', 's failed', 't failed']);
  });

  it('four sessions on a wedged provider (keep-alives only, or silent) leave the slots free: a fifth session is answered within 1 s', async () => {
    ({ h, llm } = await wedgedGateway());
    const start = h.clock.now();
    for (const [id, name, text] of [
      ['w1', 'a', 'wedged-keepalive'],
      ['w2', 'b', 'wedged-silent'],
      ['w3', 'c', 'wedged-keepalive'],
      ['w4', 'd', 'wedged-silent'],
    ] as const) {
      h.lanes.enqueue({ ...h.message(id, { key: key(name) }), text });
    }
    await vi.waitFor(() => expect(llm!.requests).toHaveLength(4), { timeout: 20_000 });
    expect(h.lanes.snapshot().pools.main?.active).toBe(4);
    // The wedged attempts have been silent for lendAfterMs (500 ms): their slots go to others.
    h.clock.advance(500);
    await vi.waitFor(() => expect(h!.lanes.snapshot().pools.main?.active).toBe(0));
    h.lanes.enqueue({ ...h.message('f1', { key: key('fifth') }), text: 'hello' });
    await vi.waitFor(() => expect(h!.outcomes).toEqual([expect.objectContaining({ messageId: 'f1', status: 'replied' })]), { timeout: 20_000 });
    expect(h.clock.now() - start).toBeLessThanOrEqual(1000);
    expect(llm.requests).toHaveLength(5);
    // The four wedged turns are still running, each on its own lane, without a slot.
    expect(h.lanes.snapshot().pools.main).toEqual({ active: 0, limit: 4, waiting: 0 });
  });
});
