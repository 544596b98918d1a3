import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-openai-server.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import type { ProviderMessage } from '../../source/providers/index.js';
import { baseRequest, collect, doneOf, makeProviders, readTool, textOf } from './helpers.js';

let state: TempState;
let llm: FakeLlmServer;

beforeEach(async () => {
  state = makeTempState();
  llm = await startFakeOpenAI();
});
afterEach(async () => {
  await llm.close();
  state.cleanup();
});

const config = () => ({
  models: {
    providers: {
      fake: {
        api: 'openai' as const,
        baseUrl: llm.baseUrl,
        apiKeyEnv: 'FAKE_KEY',
        models: { m1: { contextWindow: 32_000, maxOutput: 2000, cost: { input: 2, output: 10 } } },
      },
    },
  },
});

describe('OpenAI-compatible provider', () => {
  it('streams text, then completes a tool call round trip', async () => {
    const providers = makeProviders(state, config(), { env: { FAKE_KEY: 'sk-test' } });
    llm.reply({ text: 'Let me look.', toolCalls: [{ id: 'call_1', name: 'read', arguments: { path: 'notes.md' } }] }, { text: 'The file says hi.' });

    const first = await collect(providers.streamTurn(baseRequest('fake/m1', { tools: [readTool] })));
    expect(textOf(first)).toBe('Let me look.');
    expect(first.filter((e) => e.type === 'text_delta').length).toBeGreaterThan(1);
    const call = first.find((e) => e.type === 'tool_call');
    expect(call).toEqual({ type: 'tool_call', id: 'call_1', name: 'read', arguments: { path: 'notes.md' } });
    const done = doneOf(first);
    expect(done.stopReason).toBe('toolUse');
    expect(done.content).toEqual([
      { type: 'text', text: 'Let me look.' },
      { type: 'toolCall', id: 'call_1', name: 'read', arguments: { path: 'notes.md' } },
    ]);
    expect(done.model).toBe('fake/m1');
    expect(done.profile).toBe('env:FAKE_KEY');

    const history: ProviderMessage[] = [
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: done.content },
      { role: 'toolResult', toolCallId: 'call_1', toolName: 'read', content: 'hi', isError: false },
    ];
    const second = await collect(providers.streamTurn(baseRequest('fake/m1', { tools: [readTool], messages: history })));
    expect(doneOf(second).stopReason).toBe('stop');
    expect(textOf(second)).toBe('The file says hi.');

    const [req1, req2] = llm.requests;
    expect(req1?.path).toBe('/v1/chat/completions');
    expect(req1?.headers.authorization).toBe('Bearer sk-test');
    expect(req1?.body).toMatchObject({
      model: 'm1',
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 2000,
      messages: [
        { role: 'system', content: 'You are a test.' },
        { role: 'user', content: 'hello' },
      ],
      tools: [{ type: 'function', function: { name: 'read', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } } }],
    });
    expect(JSON.stringify(req1?.body)).not.toContain('$schema');
    expect(req2?.body.messages).toEqual([
      { role: 'system', content: 'You are a test.' },
      { role: 'user', content: 'hello' },
      {
        role: 'assistant',
        content: 'Let me look.',
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read', arguments: '{"path":"notes.md"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'hi' },
    ]);
  });

  it('assembles parallel tool calls by index and reports usage with cost', async () => {
    const providers = makeProviders(state, config(), { env: { FAKE_KEY: 'k' } });
    llm.reply({
      toolCalls: [
        { id: 'a', name: 'read', arguments: { path: 'one.md' } },
        { id: 'b', name: 'read', arguments: { path: 'two.md' } },
        { id: 'c', name: 'broken', arguments: '{"path": ' },
      ],
      chunkSize: 3,
      usage: { input: 1000, output: 200, cacheRead: 500 },
    });
    const events = await collect(providers.streamTurn(baseRequest('fake/m1', { tools: [readTool] })));
    const calls = events.filter((e) => e.type === 'tool_call');
    expect(calls).toEqual([
      { type: 'tool_call', id: 'a', name: 'read', arguments: { path: 'one.md' } },
      { type: 'tool_call', id: 'b', name: 'read', arguments: { path: 'two.md' } },
      { type: 'tool_call', id: 'c', name: 'broken', arguments: {}, invalidArguments: '{"path": ' },
    ]);
    const done = doneOf(events);
    expect(done.stopReason).toBe('toolUse');
    expect(done.usage).toMatchObject({ input: 1000, output: 200, cacheRead: 500 });
    // 1000×$2 + 200×$10 + 500 cached at the input price, per million.
    expect(done.usage?.cost).toBeCloseTo((1000 * 2 + 200 * 10 + 500 * 2) / 1e6, 10);
    expect(events.some((e) => e.type === 'usage')).toBe(true);
  });

  it('streams reasoning_content as thinking and sends reasoning_effort only to reasoning models', async () => {
    const providers = makeProviders(state, {
      models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { r1: { reasoning: true }, plain: {} } } } },
    });
    llm.reply({ thinking: 'pondering', text: 'answer' }, { text: 'ok' });
    const events = await collect(providers.streamTurn(baseRequest('fake/r1', { thinking: 'high' })));
    expect(
      events
        .filter((e) => e.type === 'thinking_delta')
        .map((e) => (e.type === 'thinking_delta' ? e.text : ''))
        .join(''),
    ).toBe('pondering');
    expect(doneOf(events).content).toEqual([
      { type: 'thinking', text: 'pondering' },
      { type: 'text', text: 'answer' },
    ]);
    await collect(providers.streamTurn(baseRequest('fake/plain', { thinking: 'high' })));
    expect(llm.requests[0]?.body.reasoning_effort).toBe('high');
    expect(llm.requests[1]?.body).not.toHaveProperty('reasoning_effort');
    // Keyless local servers get no Authorization header.
    expect(llm.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('reports a length stop', async () => {
    const providers = makeProviders(state, config(), { env: { FAKE_KEY: 'k' } });
    llm.reply({ text: 'cut', stopReason: 'length' });
    expect(doneOf(await collect(providers.streamTurn(baseRequest('fake/m1')))).stopReason).toBe('length');
  });
});

describe('OpenAI-compatible servers that bend the format', () => {
  it('accepts tool calls without index, repeated names, a finish in the same chunk, no [DONE], and no id', async () => {
    const providers = makeProviders(state, config(), { env: { FAKE_KEY: 'k' } });
    const chunk = (delta: unknown, finish: string | null = null) => `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const sse = (body: string) => ({ status: 200, headers: { 'content-type': 'text/event-stream' }, body });
    llm.reply(
      sse(
        chunk({ role: 'assistant', tool_calls: [{ id: 'x1', function: { name: 'read', arguments: '{"pa' } }] }) +
          chunk({ tool_calls: [{ function: { name: 'read', arguments: 'th":"a"}' } }] }) +
          chunk({ tool_calls: [{ id: 'x2', function: { name: 'read', arguments: '{"path":"b"}' } }] }, 'tool_calls'),
      ),
      sse(chunk({ tool_calls: [{ function: { name: 'read', arguments: '{}' } }] }, 'tool_calls')),
    );
    const events = await collect(providers.streamTurn(baseRequest('fake/m1', { tools: [readTool] })));
    const calls = events.flatMap((e) => (e.type === 'tool_call' ? [[e.id, e.name, e.arguments]] : []));
    expect(calls).toEqual([
      ['x1', 'read', { path: 'a' }],
      ['x2', 'read', { path: 'b' }],
    ]);
    expect(doneOf(events).stopReason).toBe('toolUse');

    const [made] = (await collect(providers.streamTurn(baseRequest('fake/m1')))).flatMap((e) => (e.type === 'tool_call' ? [e.id] : []));
    expect(made).toMatch(/^call_[0-9a-f]{24}$/);
  });
});
