import type { GatewayClient } from '../../source/client/index.js';
import type { AgentEventPayload, ContextPayload, TranscriptEntry } from '../../source/protocol/index.js';
import type { FakeLlmServer, FakeReply, RecordedRequest } from '../support/fake-llm-common.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

export const KEY = 'agent:main:main';

/**
 * An 8,000-token fake model with small reserves: compaction at 6,000 tokens,
 * the memory flush at 5,000, 1,000 tokens kept verbatim.
 */
export function smallWindowConfig(llm: FakeLlmServer, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: { contextWindow: 8_000 } } } } },
    agents: { defaults: { model: 'fake/m' } },
    tools: { profile: 'minimal' },
    // Compactions run at once here; the preview has its own tests.
    context: { compaction: { previewSeconds: 0 } },
    compaction: { reserveTokens: 2_000, reserveTokensFloor: 2_000, keepRecentTokens: 1_000, memoryFlush: { softThresholdTokens: 1_000 }, ...extra },
  };
}

/** The full daemon module list (sessions, agent runtime, commands) in-process. */
export async function startContextGateway(config: Record<string, unknown>, state: TempState = makeTempState()): Promise<TestGateway> {
  return startTestGateway({ state, config, core: { env: process.env } });
}

export function systemOf(request: RecordedRequest): string {
  const messages = request.body.messages as Array<{ role: string; content: unknown }>;
  const system = messages.find((message) => message.role === 'system');
  return typeof system?.content === 'string' ? system.content : JSON.stringify(system?.content ?? '');
}

export function lastUserText(request: RecordedRequest): string {
  const messages = request.body.messages as Array<{ role: string; content: unknown }>;
  const user = messages.filter((message) => message.role === 'user').at(-1);
  return typeof user?.content === 'string' ? user.content : JSON.stringify(user?.content ?? '');
}

export type RequestKind = 'summary' | 'identifier-retry' | 'flush' | 'turn';

export function kindOf(request: RecordedRequest): RequestKind {
  if (systemOf(request).startsWith('You compress conversations'))
    return lastUserText(request).includes('left out identifiers') ? 'identifier-retry' : 'summary';
  if (lastUserText(request).startsWith('Pre-compaction memory flush')) return 'flush';
  return 'turn';
}

/** Routes each request by what it is, so the script does not depend on call order. */
export function route(replies: { [K in RequestKind]?: (request: RecordedRequest) => FakeReply }): (request: RecordedRequest) => FakeReply {
  return (request) => {
    const kind = kindOf(request);
    const reply = replies[kind];
    if (!reply) return { error: 'server', message: `no ${kind} reply scripted` };
    return reply(request);
  };
}

export interface EventLog {
  agent: AgentEventPayload[];
  context: ContextPayload[];
  runEnded(runId: string): Promise<void>;
}

export function recordEvents(client: GatewayClient): EventLog {
  const log: EventLog = {
    agent: [],
    context: [],
    async runEnded(runId) {
      const deadline = Date.now() + 30_000;
      while (!log.agent.some((e) => e.runId === runId && e.stream === 'lifecycle' && ['end', 'error', 'aborted'].includes(e.phase))) {
        if (Date.now() > deadline) throw new Error(`run ${runId} did not end`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
  };
  client.on('agent', (payload) => log.agent.push(payload));
  client.on('context', (payload) => log.context.push(payload));
  return log;
}

/** Sends a message and waits until its run (with any flush and compaction after it) has ended. */
export async function turn(client: GatewayClient, events: EventLog, text: string): Promise<string> {
  const { runId } = await client.request('chat.send', { sessionKey: KEY, text });
  await events.runEnded(runId);
  return runId;
}

export async function transcript(client: GatewayClient): Promise<TranscriptEntry[]> {
  const { entries } = await client.request('sessions.history', { key: KEY, limit: 1000 });
  return entries;
}
