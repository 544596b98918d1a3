import { randomUUID } from 'node:crypto';
import { finalStopReason, MessageAssembler, parseToolArguments, withCost } from './assemble.js';
import { classifyStreamError } from './classify.js';
import { ProviderError } from './errors.js';
import { DEFAULT_IDLE_TIMEOUT_MS, postSse } from './http.js';
import { chatCompletionsBytes } from './openai-body.js';
import type { ProviderEvent, StopReason, Usage, WireRequest } from './types.js';

interface ToolCallDraft {
  id: string;
  name: string;
  args: string;
}

interface ChunkUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number };
}

interface ChatChunk {
  choices?: {
    delta?: {
      content?: string | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
      tool_calls?: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[];
    };
    finish_reason?: string | null;
  }[];
  usage?: ChunkUsage | null;
  error?: unknown;
}

const stopReasons: Record<string, StopReason> = { stop: 'stop', tool_calls: 'toolUse', function_call: 'toolUse', length: 'length', content_filter: 'stop' };

/** One streamed OpenAI-compatible Chat Completions call. */
export async function* streamOpenAI(request: WireRequest): AsyncGenerator<ProviderEvent> {
  const { model, auth } = request;
  const headers: Record<string, string> = { ...model.headers };
  if (auth.apiKey) headers.authorization = `Bearer ${auth.apiKey}`;
  const assembler = new MessageAssembler();
  const drafts = new Map<number, ToolCallDraft>();
  let stopReason: StopReason | undefined;
  let usage: Usage | undefined;
  let finished = false;

  const flushToolCalls = function* (): Generator<ProviderEvent> {
    for (const [, draft] of [...drafts].sort(([a], [b]) => a - b)) {
      // Results are paired with calls by id, so a server that sends none gets one made up.
      if (!draft.id) draft.id = `call_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
      const parsed = parseToolArguments(draft.args);
      assembler.addToolCall(draft.id, draft.name, parsed.arguments);
      const event: ProviderEvent = { type: 'tool_call', id: draft.id, name: draft.name, arguments: parsed.arguments };
      if (parsed.invalid !== undefined) event.invalidArguments = parsed.invalid;
      yield event;
    }
    drafts.clear();
  };

  const stream = postSse({
    url: `${model.baseUrl.replace(/\/+$/, '')}/chat/completions`,
    headers,
    body: chatCompletionsBytes(request),
    signal: request.signal,
    idleTimeoutMs: request.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    model: model.ref,
    profile: auth.id,
  });
  try {
    for await (const message of stream) {
      // Read on to the end of the body after [DONE]: leaving early would cancel the
      // response and cost the keep-alive connection.
      if (finished) continue;
      if (message.data === '[DONE]') {
        finished = true;
        continue;
      }
      const chunk = parseChunk(message.data, model.ref);
      if (chunk.error !== undefined) throw classifyStreamError(chunk.error, model.ref, auth.id);
      if (chunk.usage) {
        usage = withCost(toUsage(chunk.usage), model.cost);
        yield { type: 'usage', usage };
      }
      for (const choice of chunk.choices ?? []) {
        const delta = choice.delta ?? {};
        const thinking = delta.reasoning_content ?? delta.reasoning;
        if (typeof thinking === 'string' && thinking) {
          assembler.appendThinking(thinking);
          yield { type: 'thinking_delta', text: thinking };
        }
        if (typeof delta.content === 'string' && delta.content) {
          assembler.appendText(delta.content);
          yield { type: 'text_delta', text: delta.content };
        }
        for (const call of delta.tool_calls ?? []) {
          // Servers that omit `index` start a call with its id and continue it without.
          const index = call.index ?? (call.id || drafts.size === 0 ? drafts.size : drafts.size - 1);
          const draft = drafts.get(index) ?? { id: '', name: '', args: '' };
          if (call.id) draft.id = call.id;
          // The name arrives whole; some servers repeat it in every chunk.
          if (call.function?.name && !draft.name) draft.name = call.function.name;
          if (call.function?.arguments) draft.args += call.function.arguments;
          drafts.set(index, draft);
        }
        if (choice.finish_reason) {
          stopReason = stopReasons[choice.finish_reason] ?? 'stop';
          yield* flushToolCalls();
        }
      }
    }
  } catch (error) {
    if (error instanceof ProviderError) error.afterOutput = assembler.emitted;
    throw error;
  }
  if (!finished && stopReason === undefined) {
    throw new ProviderError('network', `${model.ref}: the stream ended before the reply was complete. Try again.`, {
      model: model.ref,
      profile: auth.id,
      afterOutput: assembler.emitted,
    });
  }
  yield* flushToolCalls();
  yield { type: 'done', stopReason: finalStopReason(stopReason, assembler), content: assembler.content(), usage, model: model.ref, profile: auth.id };
}

function parseChunk(data: string, model: string): ChatChunk {
  try {
    return JSON.parse(data) as ChatChunk;
  } catch (error) {
    throw new ProviderError('server', `${model} sent a malformed stream chunk. Try again.`, { model, cause: error });
  }
}

function toUsage(raw: ChunkUsage): Usage {
  const cached = raw.prompt_tokens_details?.cached_tokens ?? 0;
  const usage: Usage = { input: Math.max(0, (raw.prompt_tokens ?? 0) - cached), output: raw.completion_tokens ?? 0 };
  if (cached > 0) usage.cacheRead = cached;
  return usage;
}
