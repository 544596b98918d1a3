import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeLlmServer } from '../support/fake-anthropic-server.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import type { ProviderMessage } from '../../source/providers/index.js';
import { baseRequest, collect, doneOf, makeProviders, readTool, textOf } from './helpers.js';

let state: TempState;
let llm: FakeLlmServer;

beforeEach(async () => {
  state = makeTempState();
  llm = await startFakeAnthropic();
});
afterEach(async () => {
  await llm.close();
  state.cleanup();
});

const config = () => ({ models: { providers: { anthropic: { baseUrl: llm.baseUrl } } } });
const env = { ANTHROPIC_API_KEY: 'sk-ant-test', OLLAMA_HOST: '127.0.0.1:9' };

describe('Anthropic provider', () => {
  it('streams thinking and text, then completes a tool call round trip', async () => {
    const providers = makeProviders(state, config(), { env });
    llm.reply(
      { thinking: 'I should read it.', text: 'Reading.', toolCalls: [{ id: 'toolu_1', name: 'read', arguments: { path: 'a.md' } }] },
      { text: 'Done: a.md says hi.' },
    );
    const first = await collect(
      providers.streamTurn(baseRequest('anthropic/claude-sonnet-4-5', { tools: [readTool], thinking: 'low', maxOutputTokens: 2000 })),
    );
    expect(textOf(first)).toBe('Reading.');
    expect(first.find((e) => e.type === 'tool_call')).toEqual({ type: 'tool_call', id: 'toolu_1', name: 'read', arguments: { path: 'a.md' } });
    const done = doneOf(first);
    expect(done.stopReason).toBe('toolUse');
    expect(done.content).toEqual([
      { type: 'thinking', text: 'I should read it.', signature: 'fake-signature' },
      { type: 'text', text: 'Reading.' },
      { type: 'toolCall', id: 'toolu_1', name: 'read', arguments: { path: 'a.md' } },
    ]);

    const history: ProviderMessage[] = [
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: done.content },
      { role: 'toolResult', toolCallId: 'toolu_1', toolName: 'read', content: 'hi', isError: false },
      { role: 'user', content: 'and then?' },
    ];
    const second = await collect(providers.streamTurn(baseRequest('anthropic/claude-sonnet-4-5', { tools: [readTool], messages: history })));
    expect(textOf(second)).toBe('Done: a.md says hi.');
    expect(doneOf(second).stopReason).toBe('stop');

    const [req1, req2] = llm.requests;
    expect(req1?.path).toBe('/v1/messages');
    expect(req1?.headers['x-api-key']).toBe('sk-ant-test');
    expect(req1?.headers['anthropic-version']).toBe('2023-06-01');
    // Thinking raises max_tokens above the budget.
    expect(req1?.body).toMatchObject({
      model: 'claude-sonnet-4-5',
      stream: true,
      system: 'You are a test.',
      max_tokens: 4096 + 4096,
      thinking: { type: 'enabled', budget_tokens: 4096 },
      tools: [{ name: 'read', description: 'Read a file', input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }],
    });
    expect(req2?.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hello' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'I should read it.', signature: 'fake-signature' },
          { type: 'text', text: 'Reading.' },
          { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a.md' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'hi' },
          { type: 'text', text: 'and then?' },
        ],
      },
    ]);
    expect(req2?.body).not.toHaveProperty('thinking');
  });

  it('assembles parallel tool_use blocks, marks error results, and reports usage with cost', async () => {
    const providers = makeProviders(state, config(), { env });
    llm.reply({
      toolCalls: [
        { id: 't1', name: 'read', arguments: { path: 'x' } },
        { id: 't2', name: 'read', arguments: { path: 'y' } },
      ],
      chunkSize: 2,
      usage: { input: 2_000_000, output: 1_000_000 },
    });
    const history: ProviderMessage[] = [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', text: 'unsigned thoughts from another model' },
          { type: 'toolCall', id: 't0', name: 'read', arguments: {} },
        ],
      },
      { role: 'toolResult', toolCallId: 't0', toolName: 'read', content: 'no such file', isError: true },
    ];
    const events = await collect(providers.streamTurn(baseRequest('anthropic/claude-sonnet-4-5', { messages: history, tools: [readTool] })));
    expect(events.filter((e) => e.type === 'tool_call').map((e) => (e.type === 'tool_call' ? [e.id, e.arguments] : []))).toEqual([
      ['t1', { path: 'x' }],
      ['t2', { path: 'y' }],
    ]);
    const done = doneOf(events);
    expect(done.usage).toEqual({ input: 2_000_000, output: 1_000_000, cost: 2 * 3 + 1 * 15 });
    expect(llm.requests[0]?.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't0', name: 'read', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't0', content: 'no such file', is_error: true }] },
    ]);
  });

  it('refuses to call Anthropic without a key and says what to set', async () => {
    const providers = makeProviders(state, config(), { env: { OLLAMA_HOST: '127.0.0.1:9' } });
    await expect(collect(providers.streamTurn(baseRequest('anthropic/claude-sonnet-4-5')))).rejects.toMatchObject({
      kind: 'not_configured',
      message: expect.stringContaining('ANTHROPIC_API_KEY'),
    });
    expect(llm.requests).toHaveLength(0);
  });
});
