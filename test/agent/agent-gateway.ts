import { AgentRuntime } from '../../source/agent/index.js';
import { loadConfig, writeRawConfig, systemClock } from '../../source/config/index.js';
import { agentTurnRunner } from '../../source/core/index.js';
import type { GatewayClient } from '../../source/client/index.js';
import type { ChatEventPayload, TranscriptEntry } from '../../source/protocol/index.js';
import { createProviders } from '../../source/providers/index.js';
import { createFsTools, ToolRegistry, type ApprovalGate, type ToolDefinition } from '../../source/tools/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { makeTempState } from '../support/temp-state.js';

/** No tool in these tests asks for approval; a request would be a test bug. */
const refusingGate: ApprovalGate = {
  async request() {
    throw new Error('unexpected approval request in an agent test');
  },
  approvedForSession: () => false,
};

export interface AgentGateway extends TestGateway {
  runtime: AgentRuntime;
  registry: ToolRegistry;
}

/**
 * A real gateway whose lanes run turns through the real agent runtime, with
 * providers built from `config` and the keys in `env` (nothing from the
 * machine's environment leaks in).
 */
export async function startAgentGateway(options: {
  config: Record<string, unknown>;
  env?: NodeJS.ProcessEnv;
  tools?: ToolDefinition[];
}): Promise<AgentGateway> {
  const state = makeTempState();
  writeRawConfig(state.paths.config, options.config);
  const config = loadConfig(state.paths.config);
  const providers = createProviders({ config, paths: state.paths, env: options.env ?? { OLLAMA_HOST: 'http://127.0.0.1:9' } });
  const registry = new ToolRegistry();
  for (const tool of createFsTools({ roots: [], maxReadBytes: 1_000_000 })) registry.register(tool as unknown as ToolDefinition);
  for (const tool of options.tools ?? []) registry.register(tool);
  const runtime = new AgentRuntime({ config, paths: state.paths, providers, registry, approvals: () => refusingGate, clock: systemClock });
  const gateway = await startTestGateway({ state, core: { runner: agentTurnRunner(runtime) } });
  return {
    ...gateway,
    runtime,
    registry,
    async stop() {
      await gateway.stop();
      state.cleanup();
    },
  };
}

/** Collects the chat events of one run and resolves when it ends (final, aborted or error). */
export function collectRun(client: GatewayClient): { events: ChatEventPayload[]; ended(): Promise<ChatEventPayload> } {
  const events: ChatEventPayload[] = [];
  let resolveEnd: (event: ChatEventPayload) => void = () => undefined;
  const end = new Promise<ChatEventPayload>((resolve) => {
    resolveEnd = resolve;
  });
  client.on('chat', (payload) => {
    events.push(payload);
    if (payload.state !== 'delta') resolveEnd(payload);
  });
  return { events, ended: () => end };
}

/** Every toolCall in the transcript has exactly one toolResult after it. */
export function unpairedToolCalls(entries: readonly TranscriptEntry[]): string[] {
  const results = new Set(entries.flatMap((e) => (e.type === 'message' && e.role === 'toolResult' ? [e.toolCallId] : [])));
  return entries.flatMap((e) =>
    e.type === 'message' && e.role === 'assistant' ? e.content.flatMap((b) => (b.type === 'toolCall' && !results.has(b.id) ? [b.id] : [])) : [],
  );
}

export async function waitFor(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
