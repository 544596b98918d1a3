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
  type WireRules,
} from './fake-llm-common.js';
import { openAiRefusal } from './strict-wire.js';

export type { FakeLlmServer, FakeReply, FakeResponder, FakeToolCall, RecordedRequest } from './fake-llm-common.js';

/**
 * A fake OpenAI-compatible Chat Completions server on 127.0.0.1:0.
 *
 *   const llm = await startFakeOpenAI();
 *   llm.reply({ text: 'hi' }, { toolCalls: [{ name: 'read', arguments: { path: 'a' } }] }, { error: 'rate_limit', retryAfter: 2 });
 *   config: { models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {} } } } } }
 *   llm.requests[0].body.messages  // what claw sent
 *   await llm.close();
 */
export function startFakeOpenAI(): Promise<FakeLlmServer> {
  return startFakeLlmServer({ basePath: '/v1', render, listRoutes: { '/v1/models': openAIModelList }, rules: OPENAI_RULES });
}

/** Chat Completions' 400 for a request the real API refuses. */
const OPENAI_RULES: WireRules = {
  refusal: openAiRefusal,
  render: (message) => ({ status: 400, body: JSON.stringify({ error: { message, type: 'invalid_request_error', param: null, code: null } }) }),
};

/** GET /v1/models as OpenAI, llama.cpp, vLLM and LM Studio answer it. */
export function openAIModelList(ids: readonly string[]): unknown {
  return { object: 'list', data: ids.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'fake' })) };
}

/**
 * A fake Ollama: `GET /api/tags` plus its OpenAI-compatible API under /v1
 * (scripted like startFakeOpenAI). Point OLLAMA_HOST at `url`.
 */
export function startFakeOllama(): Promise<FakeLlmServer> {
  return startFakeLlmServer({
    basePath: '/v1',
    render,
    listRoutes: {
      '/v1/models': openAIModelList,
      '/api/tags': (ids) => ({ models: ids.map((name) => ({ name, model: name, size: 1, digest: 'fake', modified_at: '2026-01-01T00:00:00Z' })) }),
    },
    rules: OPENAI_RULES,
  });
}

const errors: Record<FakeErrorName, { status: number; type: string; code: string | null; message: string }> = {
  auth: { status: 401, type: 'invalid_request_error', code: 'invalid_api_key', message: 'Incorrect API key provided.' },
  rate_limit: { status: 429, type: 'requests', code: 'rate_limit_exceeded', message: 'Rate limit reached for requests.' },
  overloaded: { status: 503, type: 'server_error', code: 'overloaded', message: 'The engine is currently overloaded.' },
  server: { status: 500, type: 'server_error', code: null, message: 'The server had an error while processing your request.' },
  context_length: {
    status: 400,
    type: 'invalid_request_error',
    code: 'context_length_exceeded',
    message: "This model's maximum context length is 128000 tokens.",
  },
  billing: { status: 429, type: 'insufficient_quota', code: 'insufficient_quota', message: 'You exceeded your current quota.' },
  not_found: { status: 404, type: 'invalid_request_error', code: 'model_not_found', message: 'The model does not exist.' },
};

async function render(reply: FakeReply, request: RecordedRequest, res: ServerResponse): Promise<void> {
  if (isRawReply(reply)) {
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    res.end(reply.body);
    return;
  }
  if (isErrorReply(reply)) {
    const spec = errors[reply.error];
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (reply.retryAfter !== undefined) headers['retry-after'] = String(reply.retryAfter);
    res.writeHead(spec.status, headers);
    res.end(JSON.stringify({ error: { message: reply.message ?? spec.message, type: spec.type, param: null, code: spec.code } }));
    return;
  }
  await stream(reply, request, res);
}

async function stream(reply: FakeStreamReply, request: RecordedRequest, res: ServerResponse): Promise<void> {
  const out = new SseWriter(res, reply);
  const model = typeof request.body.model === 'string' ? request.body.model : 'fake';
  const size = reply.chunkSize ?? 8;
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): string =>
    JSON.stringify({
      id: 'chatcmpl-fake',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });

  if (!(await out.send(chunk({ role: 'assistant', content: '' })))) return;
  if (reply.keepAliveEveryMs !== undefined) return out.keepAliveUntilClosed(': keep-alive\n\n', reply.keepAliveEveryMs);
  for (const piece of splitText(reply.thinking ?? '', size)) if (!(await out.send(chunk({ reasoning_content: piece })))) return;
  if (reply.hang && !reply.text) return out.hangUntilClosed();
  for (const piece of splitText(reply.text ?? '', size)) {
    if (!(await out.send(chunk({ content: piece })))) return;
    if (reply.hang) return out.hangUntilClosed();
  }
  if (reply.streamError) {
    const spec = errors[reply.streamError];
    await out.send(JSON.stringify({ error: { message: spec.message, type: spec.type, code: spec.code } }));
    out.end();
    return;
  }
  for (const [index, call] of (reply.toolCalls ?? []).entries()) {
    const id = call.id ?? `call_fake_${index}`;
    const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
    if (!(await out.send(chunk({ tool_calls: [{ index, id, type: 'function', function: { name: call.name, arguments: '' } }] })))) return;
    for (const piece of splitText(args, size)) if (!(await out.send(chunk({ tool_calls: [{ index, function: { arguments: piece } }] })))) return;
  }
  const stop = reply.stopReason ?? (reply.toolCalls?.length ? 'toolUse' : 'stop');
  const finish = stop === 'toolUse' ? 'tool_calls' : stop;
  if (!(await out.send(chunk({}, finish)))) return;
  const options = request.body.stream_options;
  if (typeof options === 'object' && options !== null && (options as { include_usage?: unknown }).include_usage === true) {
    const usage = defaultUsage(request, reply);
    const details = usage.cacheRead ? { prompt_tokens_details: { cached_tokens: usage.cacheRead } } : {};
    const promptTokens = usage.input + (usage.cacheRead ?? 0);
    const body = {
      id: 'chatcmpl-fake',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model,
      choices: [],
      usage: { prompt_tokens: promptTokens, completion_tokens: usage.output, total_tokens: promptTokens + usage.output, ...details },
    };
    if (!(await out.send(JSON.stringify(body)))) return;
  }
  if (!(await out.send('[DONE]'))) return;
  out.end();
}
