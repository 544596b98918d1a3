import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentRuntime } from '../../source/agent/index.js';
import { loadConfig, writeRawConfig } from '../../source/config/index.js';
import { agentModule } from '../../source/gateway/agent-module.js';
import { sessionCommandHost } from '../../source/gateway/agent-command-host.js';
import { agentTurnRunner } from '../../source/gateway/agent-turn-runner.js';
import type { ModuleFactory } from '../../source/gateway/index.js';
import type { AgentEventPayload, ChatEventPayload } from '../../source/protocol/index.js';
import { createProviders } from '../../source/providers/index.js';
import { LaneQueue, type TurnEmitter } from '../../source/queue/index.js';
import { SessionRegistry } from '../../source/sessions/index.js';
import { ToolRegistry } from '../../source/tools/index.js';
import { startFakeOpenAI } from '../support/fake-openai-server.js';
import type { FakeLlmServer } from '../support/fake-llm-common.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { makeTempState } from '../support/temp-state.js';
import { collectRun } from './agent-gateway.js';

const KEY = 'agent:main:main';
let gateway: TestGateway | undefined;
let llm: FakeLlmServer | undefined;
let cleanup: (() => void) | undefined;

afterEach(async () => {
  await gateway?.stop();
  await llm?.close();
  cleanup?.();
  gateway = undefined;
  llm = undefined;
  cleanup = undefined;
});

/**
 * Real sessions, lanes, runtime and providers behind commands.run. Retry is
 * the lane re-running the last user message, which the lane does not append twice.
 */
async function startCommandGateway(config: Record<string, unknown>): Promise<TestGateway> {
  const state = makeTempState();
  cleanup = state.cleanup;
  writeRawConfig(state.paths.config, config);
  const loaded = loadConfig(state.paths.config);
  const providers = createProviders({ config: loaded, paths: state.paths, env: { OLLAMA_HOST: 'http://127.0.0.1:9' } });
  const runtime = new AgentRuntime({
    config: loaded,
    paths: state.paths,
    providers,
    registry: new ToolRegistry(),
    approvals: () => ({ request: async () => ({ id: 'none', approved: false, status: 'denied' }), approvedForSession: () => false }),
    now: Date.now,
  });
  const stack: ModuleFactory = async (context) => {
    const sessions = new SessionRegistry({ paths: context.paths, config: context.config });
    const emit = ((event: 'chat' | 'agent', payload: ChatEventPayload | AgentEventPayload) => {
      if (event === 'chat') context.bus.emit('chat', payload as ChatEventPayload);
      else context.bus.emit('agent', payload as AgentEventPayload);
    }) as TurnEmitter;
    const lanes = new LaneQueue({ config: context.config.queue, runner: agentTurnRunner(runtime), openSession: (key) => sessions.open(key), onOutcome: () => undefined, emit });
    let seq = 0;
    const host = sessionCommandHost({
      sessions,
      lanes,
      changed: () => undefined,
      async retry(key) {
        const session = await sessions.open(key);
        const last = [...session.entries()].reverse().find((e) => e.type === 'message' && e.role === 'user');
        if (!last || last.type !== 'message' || last.role !== 'user') throw new Error('nothing to retry');
        const runId = randomUUID();
        seq += 1;
        lanes.enqueue({ seq, runId, messageId: last.meta?.messageId ?? last.id, sessionKey: key, agentId: session.agentId, channel: 'tui', text: last.content, mode: 'followup', acceptedAt: Date.now() });
        return { runId };
      },
    });
    const module = await agentModule({ runtime, providers, host })(context);
    return {
      ...module,
      handlers: {
        ...module.handlers,
        'chat.send': async ({ sessionKey, text }) => {
          sessions.ensure(sessionKey, 'tui');
          const runId = randomUUID();
          seq += 1;
          lanes.enqueue({ seq, runId, messageId: runId, sessionKey, agentId: 'main', channel: 'tui', text, mode: 'followup', acceptedAt: Date.now() });
          return { runId, messageId: runId, idempotencyKey: runId, status: 'started' as const };
        },
      },
      async close() {
        await sessions.close();
      },
    };
  };
  return startTestGateway({ state, modules: [stack] });
}

function fakeConfig(server: FakeLlmServer, apiKeyEnv?: string): Record<string, unknown> {
  return {
    models: { providers: { fake: { api: 'openai', baseUrl: server.baseUrl, ...(apiKeyEnv ? { apiKeyEnv } : {}), models: { m: { contextWindow: 32_000 }, other: {} } } } },
    agents: { defaults: { model: 'fake/m' } },
  };
}

describe('commands', () => {
  it('lists the commands and answers /help, /status, /model, /think, /new, /reset, /abort', async () => {
    llm = await startFakeOpenAI();
    gateway = await startCommandGateway(fakeConfig(llm));
    const client = await gateway.connect();
    const { commands } = await client.request('commands.list', {});
    expect(commands.map((c) => c.name)).toEqual(['status', 'model', 'think', 'new', 'reset', 'abort', 'retry', 'context', 'compact', 'help']);
    expect((await client.request('commands.run', { sessionKey: KEY, text: '/help' })).reply).toContain('/think off|minimal|low|medium|high');

    const status = await client.request('commands.run', { sessionKey: KEY, text: '/status' });
    expect(status.reply).toContain('model    fake/m via fake');
    expect(status.reply).toContain('0 / 32k (0%)');
    expect(status.data).toMatchObject({ model: 'fake/m', provider: 'fake', window: 32_000, queued: 0, running: false });

    expect((await client.request('commands.run', { sessionKey: KEY, text: '/model fake/other' })).reply).toContain('fake/other');
    expect((await client.request('commands.run', { sessionKey: KEY, text: '/status' })).data).toMatchObject({ model: 'fake/other' });
    await expect(client.request('commands.run', { sessionKey: KEY, text: '/model nowhere/x' })).rejects.toMatchObject({ code: 'bad_request' });

    expect((await client.request('commands.run', { sessionKey: KEY, text: '/think HIGH' })).data).toEqual({ thinking: 'high' });
    await expect(client.request('commands.run', { sessionKey: KEY, text: '/think hard' })).rejects.toMatchObject({ code: 'bad_request' });

    const before = (await client.request('commands.run', { sessionKey: KEY, text: '/status' })).data as { sessionId: string };
    const reset = await client.request('commands.run', { sessionKey: KEY, text: '/reset' });
    expect(reset.reply).not.toContain(before.sessionId);
    expect((await client.request('commands.run', { sessionKey: KEY, text: '/new fake/m' })).reply).toContain('with fake/m');
    expect((await client.request('commands.run', { sessionKey: KEY, text: '/abort' })).reply).toBe('nothing is running');
    await expect(client.request('commands.run', { sessionKey: KEY, text: '/frobnicate' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('/retry answers a message that failed for lack of a key, without repeating it', async () => {
    llm = await startFakeOpenAI();
    gateway = await startCommandGateway(fakeConfig(llm, 'FAKE_RETRY_KEY'));
    const client = await gateway.connect();
    const first = collectRun(client);
    await client.request('chat.send', { sessionKey: KEY, text: 'are you there?' });
    const failed = await first.ended();
    expect(failed.state === 'error' ? failed.message : '').toContain('FAKE_RETRY_KEY');
    const status = await client.request('commands.run', { sessionKey: KEY, text: '/status' });
    expect(status.reply).toContain('FAKE_RETRY_KEY');

    writeFileSync(join(gateway.state.paths.credentials, 'fake.json'), JSON.stringify({ apiKey: 'k' }), { mode: 0o600 });
    llm.reply({ text: 'Yes, here now.' });
    const second = collectRun(await gateway.connect());
    await client.request('commands.run', { sessionKey: KEY, text: '/retry' });
    expect(await second.ended()).toMatchObject({ state: 'final', text: 'Yes, here now.' });
    const messages = (llm.requests[0]?.body.messages ?? []) as Array<{ role: string; content: unknown }>;
    expect(messages.filter((m) => m.role === 'user' && JSON.stringify(m.content).includes('are you there?'))).toHaveLength(1);
    expect((await client.request('commands.run', { sessionKey: KEY, text: '/status' })).reply).toContain('error    none');
  });
});
