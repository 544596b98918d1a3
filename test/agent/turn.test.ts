import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { ABORTED_RESULT, ensureWorkspaceSync } from '../../source/agent/index.js';
import type { AgentEventPayload, TranscriptEntry } from '../../source/protocol/index.js';
import { defineTool, toolOk, type ToolDefinition } from '../../source/tools/index.js';
import { startFakeAnthropic } from '../support/fake-anthropic-server.js';
import { startFakeOpenAI } from '../support/fake-openai-server.js';
import type { FakeLlmServer } from '../support/fake-llm-common.js';
import { collectRun, startAgentGateway, unpairedToolCalls, waitFor, type AgentGateway } from './agent-gateway.js';

const KEY = 'agent:main:main';
let gateway: AgentGateway | undefined;
let llm: FakeLlmServer | undefined;

afterEach(async () => {
  await gateway?.stop();
  await llm?.close();
  gateway = undefined;
  llm = undefined;
});

function providerConfig(api: 'openai' | 'anthropic', server: FakeLlmServer): Record<string, unknown> {
  return {
    models: { providers: { fake: { api, baseUrl: server.baseUrl, models: { m: { contextWindow: 32_000, cost: { input: 1, output: 2 } } } } } },
    agents: { defaults: { model: 'fake/m' } },
  };
}

async function history(g: AgentGateway): Promise<TranscriptEntry[]> {
  const client = await g.connect();
  const { entries } = await client.request('sessions.history', { key: KEY, limit: 1000 });
  return entries;
}

function writeNotes(g: AgentGateway): void {
  const dir = g.state.paths.workspace('main');
  ensureWorkspaceSync(dir);
  writeFileSync(join(dir, 'notes.txt'), 'hello from notes\n');
}

describe.each([
  ['openai', startFakeOpenAI],
  ['anthropic', startFakeAnthropic],
] as const)('a full turn over %s', (api, start) => {
  it('streams text, runs a tool round trip and records it all', async () => {
    llm = await start();
    gateway = await startAgentGateway({ config: providerConfig(api, llm) });
    writeNotes(gateway);
    llm.reply(
      { text: 'Let me look.', toolCalls: [{ id: 'call_1', name: 'read', arguments: { path: 'notes.txt' } }] },
      { text: 'The notes say hello.', usage: { input: 100, output: 10 } },
    );
    const client = await gateway.connect();
    const run = collectRun(client);
    const tools: AgentEventPayload[] = [];
    client.on('agent', (payload) => {
      if (payload.stream === 'tool') tools.push(payload);
    });
    await client.request('chat.send', { sessionKey: KEY, text: 'what do my notes say?' });
    const end = await run.ended();
    expect(end).toMatchObject({ state: 'final', text: 'The notes say hello.' });
    const deltas = run.events.flatMap((e) => (e.state === 'delta' ? [e.delta] : [])).join('');
    expect(deltas).toBe('Let me look.The notes say hello.');
    expect(tools.map((t) => `${t.stream === 'tool' ? t.phase : ''}:${t.stream === 'tool' ? t.name : ''}`)).toEqual(['start:read', 'end:read']);

    const second = JSON.stringify(llm.requests[1]?.body);
    expect(second).toContain('hello from notes');
    expect(JSON.stringify(llm.requests[0]?.body)).toContain('never grants you permissions');

    const entries = await history(gateway);
    const shape = entries.map((e) => (e.type === 'message' ? e.role : e.type));
    expect(shape).toEqual(['user', 'assistant', 'toolResult', 'assistant']);
    expect(unpairedToolCalls(entries)).toEqual([]);
    const { session } = await client.request('sessions.get', { key: KEY });
    expect(session.tokens.input).toBeGreaterThanOrEqual(100);
    expect(session.tokens.output).toBeGreaterThanOrEqual(10);
  });
});

describe('turn outcomes', () => {
  it('does not deliver a reply of exactly NO_REPLY', async () => {
    llm = await startFakeOpenAI();
    gateway = await startAgentGateway({ config: providerConfig('openai', llm) });
    llm.reply({ text: 'NO_REPLY', chunkSize: 2 });
    const client = await gateway.connect();
    const run = collectRun(client);
    await client.request('chat.send', { sessionKey: KEY, text: 'heartbeat' });
    const end = await run.ended();
    expect(end).toMatchObject({ state: 'final', text: '', suppressed: true });
    expect(run.events.filter((e) => e.state === 'delta')).toEqual([]);
  });

  it('abort mid-stream keeps the partial reply and a valid transcript', async () => {
    llm = await startFakeOpenAI();
    gateway = await startAgentGateway({ config: providerConfig('openai', llm) });
    llm.reply({ text: 'Here is a long answer', hang: true });
    const client = await gateway.connect();
    const run = collectRun(client);
    await client.request('chat.send', { sessionKey: KEY, text: 'tell me a story' });
    await waitFor(() => run.events.some((e) => e.state === 'delta'), 'the first delta');
    await client.request('chat.abort', { sessionKey: KEY });
    expect((await run.ended()).state).toBe('aborted');
    const entries = await history(gateway);
    const assistant = entries.find((e) => e.type === 'message' && e.role === 'assistant');
    expect(assistant).toMatchObject({ stopReason: 'aborted' });
    expect(unpairedToolCalls(entries)).toEqual([]);
  });

  it('abort mid-tool pairs the running and the pending calls with aborted results', async () => {
    let started = false;
    const stall: ToolDefinition = defineTool({
      name: 'stall',
      group: 'runtime',
      risk: 'low',
      description: 'Waits forever, ignoring aborts.',
      input: z.strictObject({}),
      async execute() {
        started = true;
        return new Promise(() => undefined);
      },
    }) as unknown as ToolDefinition;
    llm = await startFakeOpenAI();
    gateway = await startAgentGateway({ config: { ...providerConfig('openai', llm), tools: { profile: 'full' } }, tools: [stall] });
    writeNotes(gateway);
    llm.reply({
      toolCalls: [
        { id: 'c1', name: 'stall', arguments: {} },
        { id: 'c2', name: 'read', arguments: { path: 'notes.txt' } },
      ],
    });
    const client = await gateway.connect();
    const run = collectRun(client);
    await client.request('chat.send', { sessionKey: KEY, text: 'do it' });
    await waitFor(() => started, 'the tool to start');
    await client.request('chat.abort', { sessionKey: KEY });
    expect((await run.ended()).state).toBe('aborted');
    const entries = await history(gateway);
    expect(unpairedToolCalls(entries)).toEqual([]);
    const results = entries.flatMap((e) => (e.type === 'message' && e.role === 'toolResult' ? [e] : []));
    expect(results.map((r) => [r.toolCallId, r.isError, r.content])).toEqual([
      ['c1', true, ABORTED_RESULT],
      ['c2', true, ABORTED_RESULT],
    ]);
  });

  it('turns a schema failure into a tool error the model reads', async () => {
    llm = await startFakeOpenAI();
    gateway = await startAgentGateway({ config: providerConfig('openai', llm) });
    llm.reply({ toolCalls: [{ id: 'bad', name: 'read', arguments: { path: 42 } }] }, { text: 'Sorry, fixed.' });
    const client = await gateway.connect();
    const run = collectRun(client);
    await client.request('chat.send', { sessionKey: KEY, text: 'read it' });
    expect(await run.ended()).toMatchObject({ state: 'final', text: 'Sorry, fixed.' });
    const entries = await history(gateway);
    const result = entries.find((e) => e.type === 'message' && e.role === 'toolResult');
    expect(result).toMatchObject({ isError: true });
    expect(JSON.stringify(llm.requests[1]?.body)).toContain('Invalid arguments for read');
  });

  it('without a key keeps the message, says what to set, and answers once the key exists', async () => {
    llm = await startFakeOpenAI();
    const config = {
      models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, apiKeyEnv: 'FAKE_LLM_KEY', models: { m: {} } } } },
      agents: { defaults: { model: 'fake/m' } },
    };
    gateway = await startAgentGateway({ config });
    const client = await gateway.connect();
    const first = collectRun(client);
    await client.request('chat.send', { sessionKey: KEY, text: 'first question' });
    const error = await first.ended();
    expect(error.state).toBe('error');
    expect(error.state === 'error' ? `${error.message} ${error.hint ?? ''}` : '').toContain('FAKE_LLM_KEY');
    expect(llm.requests).toHaveLength(0);
    expect((await history(gateway)).some((e) => e.type === 'message' && e.role === 'user' && e.content === 'first question')).toBe(true);

    writeFileSync(join(gateway.state.paths.credentials, 'fake.json'), JSON.stringify({ apiKey: 'k' }), { mode: 0o600 });
    llm.reply({ text: 'Answering both.' });
    const second = collectRun(await gateway.connect());
    await client.request('chat.send', { sessionKey: KEY, text: 'second question' });
    expect(await second.ended()).toMatchObject({ state: 'final', text: 'Answering both.' });
    expect(JSON.stringify(llm.requests[0]?.body)).toContain('first question');
  });

  it('injects a steered message once the results of the running round are on disk', async () => {
    let release: () => void = () => undefined;
    let started = false;
    const gate: ToolDefinition = defineTool({
      name: 'gate',
      group: 'runtime',
      risk: 'low',
      description: 'Waits until the test releases it.',
      input: z.strictObject({}),
      async execute() {
        started = true;
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return toolOk('gate passed');
      },
    }) as unknown as ToolDefinition;
    llm = await startFakeOpenAI();
    gateway = await startAgentGateway({ config: { ...providerConfig('openai', llm), tools: { profile: 'full' } }, tools: [gate] });
    writeNotes(gateway);
    llm.reply(
      {
        toolCalls: [
          { id: 'g1', name: 'gate', arguments: {} },
          { id: 'r1', name: 'read', arguments: { path: 'notes.txt' } },
        ],
      },
      { text: 'Switching to French.' },
    );
    const client = await gateway.connect();
    const run = collectRun(client);
    const sent = await client.request('chat.send', { sessionKey: KEY, text: 'read my notes' });
    await waitFor(() => started, 'the gate tool to start');
    await client.request('chat.send', { sessionKey: KEY, text: 'answer in French', queueMode: 'steer' });
    await waitFor(() => {
      release();
      return run.events.some((e) => e.state !== 'delta');
    }, 'the turn to end');
    expect(run.events.find((e) => e.state === 'final')).toMatchObject({ runId: sent.runId, text: 'Switching to French.' });
    const entries = await history(gateway);
    const shape = entries.flatMap((e) => (e.type === 'message' ? [e.role === 'toolResult' ? `toolResult:${e.toolCallId}` : e.role] : []));
    // Every call is followed by its result before the steered message.
    expect(shape).toEqual(['user', 'assistant', 'toolResult:g1', 'toolResult:r1', 'user', 'assistant']);
    expect(unpairedToolCalls(entries)).toEqual([]);
    expect(JSON.stringify(llm.requests[1]?.body)).toContain('answer in French');
  });
});
