import type { ServerResponse } from 'node:http';
import {
  defaultUsage,
  isErrorReply,
  isRawReply,
  SseWriter,
  splitText,
  startFakeLlmServer,
  type FakeErrorName,
  type FakeLlmServer,
  type FakeReply,
  type FakeStreamReply,
  type RecordedRequest,
} from './fake-llm-common.js';
import { anthropicRefusal } from './strict-wire.js';

export type { FakeLlmServer, FakeReply, FakeResponder, FakeToolCall, RecordedRequest } from './fake-llm-common.js';

/**
 * A fake Anthropic Messages server on 127.0.0.1:0 (POST /v1/messages, SSE
 * with the real event names). Same scripting API as startFakeOpenAI:
 *
 *   const llm = await startFakeAnthropic();
 *   llm.reply({ thinking: 'hmm', text: 'hi' }, { error: 'overloaded' });
 *   config: { models: { providers: { anthropic: { baseUrl: llm.baseUrl } } } }  (+ ANTHROPIC_API_KEY)
 */
export function startFakeAnthropic(): Promise<FakeLlmServer> {
  return startFakeLlmServer({
    basePath: '',
    render,
    listRoutes: { '/v1/models': (ids) => ({ data: ids.map((id) => ({ id, type: 'model', display_name: id })), has_more: false }) },
    rules: {
      refusal: anthropicRefusal,
      render: (message) => ({
        status: 400,
        headers: { 'request-id': 'req_fake' },
        body: JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message } }),
      }),
    },
  });
}

const errors: Record<FakeErrorName, { status: number; type: string; message: string }> = {
  auth: { status: 401, type: 'authentication_error', message: 'invalid x-api-key' },
  rate_limit: { status: 429, type: 'rate_limit_error', message: 'Number of requests has exceeded your rate limit.' },
  overloaded: { status: 529, type: 'overloaded_error', message: 'Overloaded' },
  server: { status: 500, type: 'api_error', message: 'Internal server error' },
  context_length: { status: 400, type: 'invalid_request_error', message: 'prompt is too long: 250000 tokens > 200000 maximum' },
  billing: { status: 402, type: 'billing_error', message: 'Your credit balance is too low.' },
  not_found: { status: 404, type: 'not_found_error', message: 'model: not-a-model' },
};

async function render(reply: FakeReply, request: RecordedRequest, res: ServerResponse): Promise<void> {
  if (isRawReply(reply)) {
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    res.end(reply.body);
    return;
  }
  if (isErrorReply(reply)) {
    const spec = errors[reply.error];
    const headers: Record<string, string> = { 'content-type': 'application/json', 'request-id': 'req_fake' };
    if (reply.retryAfter !== undefined) headers['retry-after'] = String(reply.retryAfter);
    res.writeHead(spec.status, headers);
    res.end(JSON.stringify({ type: 'error', error: { type: spec.type, message: reply.message ?? spec.message } }));
    return;
  }
  await stream(reply, request, res);
}

async function stream(reply: FakeStreamReply, request: RecordedRequest, res: ServerResponse): Promise<void> {
  const out = new SseWriter(res, reply);
  const send = (type: string, payload: Record<string, unknown>): Promise<boolean> => out.send(JSON.stringify({ type, ...payload }), type);
  const model = typeof request.body.model === 'string' ? request.body.model : 'fake';
  const size = reply.chunkSize ?? 8;
  const usage = defaultUsage(request, reply);
  const startUsage = { input_tokens: usage.input, output_tokens: 1, cache_read_input_tokens: usage.cacheRead ?? 0, cache_creation_input_tokens: 0 };
  const message = { id: 'msg_fake', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: startUsage };
  if (!(await send('message_start', { message }))) return;
  if (!(await send('ping', {}))) return;
  if (reply.keepAliveEveryMs !== undefined) return out.keepAliveUntilClosed('event: ping\ndata: {"type": "ping"}\n\n', reply.keepAliveEveryMs);
  if (reply.hang && !reply.text && reply.thinking === undefined) return out.hangUntilClosed();
  let index = 0;
  if (reply.redactedThinking !== undefined) {
    if (!(await send('content_block_start', { index, content_block: { type: 'redacted_thinking', data: reply.redactedThinking } }))) return;
    if (!(await send('content_block_stop', { index }))) return;
    index += 1;
  }
  if (reply.thinking !== undefined) {
    if (!(await send('content_block_start', { index, content_block: { type: 'thinking', thinking: '' } }))) return;
    for (const piece of splitText(reply.thinking, size)) {
      if (!(await send('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: piece } }))) return;
      if (reply.hang && !reply.text) return out.hangUntilClosed();
    }
    if (!(await send('content_block_delta', { index, delta: { type: 'signature_delta', signature: 'fake-signature' } }))) return;
    if (!(await send('content_block_stop', { index }))) return;
    index += 1;
  }
  if (reply.text !== undefined) {
    if (!(await send('content_block_start', { index, content_block: { type: 'text', text: '' } }))) return;
    for (const piece of splitText(reply.text, size)) {
      if (!(await send('content_block_delta', { index, delta: { type: 'text_delta', text: piece } }))) return;
      if (reply.hang) return out.hangUntilClosed();
    }
    if (reply.streamError) {
      const spec = errors[reply.streamError];
      await send('error', { error: { type: spec.type, message: spec.message } });
      out.end();
      return;
    }
    if (!(await send('content_block_stop', { index }))) return;
    index += 1;
  }
  for (const [n, call] of (reply.toolCalls ?? []).entries()) {
    const id = call.id ?? `toolu_fake_${n}`;
    const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
    if (!(await send('content_block_start', { index, content_block: { type: 'tool_use', id, name: call.name, input: {} } }))) return;
    for (const piece of splitText(args, size))
      if (!(await send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } }))) return;
    if (!(await send('content_block_stop', { index }))) return;
    index += 1;
  }
  const stop = reply.stopReason ?? (reply.toolCalls?.length ? 'toolUse' : 'stop');
  const stopReason = stop === 'toolUse' ? 'tool_use' : stop === 'length' ? 'max_tokens' : 'end_turn';
  if (!(await send('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output } }))) return;
  if (!(await send('message_stop', {}))) return;
  out.end();
}
