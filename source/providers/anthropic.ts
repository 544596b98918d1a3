import { finalStopReason, MessageAssembler, parseToolArguments, withCost } from './assemble.js';
import { classifyStreamError } from './classify.js';
import { ProviderError } from './errors.js';
import { DEFAULT_IDLE_TIMEOUT_MS, postSse } from './http.js';
import { messagesBytes } from './anthropic-body.js';
import type { ProviderEvent, StopReason, Usage, WireRequest } from './types.js';

export const ANTHROPIC_VERSION = '2023-06-01';

interface RawUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

interface StreamEvent {
  type?: string;
  index?: number;
  message?: { usage?: RawUsage };
  content_block?: { type?: string; id?: string; name?: string; text?: string; thinking?: string; signature?: string; data?: string };
  delta?: { type?: string; text?: string; partial_json?: string; thinking?: string; signature?: string; stop_reason?: string | null };
  usage?: RawUsage;
  error?: unknown;
}

const stopReasons: Record<string, StopReason> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'toolUse',
  max_tokens: 'length',
  pause_turn: 'stop',
  refusal: 'stop',
};

/** One streamed Anthropic Messages call. */
export async function* streamAnthropic(request: WireRequest): AsyncGenerator<ProviderEvent> {
  const { model, auth } = request;
  const headers: Record<string, string> = { 'anthropic-version': ANTHROPIC_VERSION, ...model.headers };
  if (auth.apiKey) headers['x-api-key'] = auth.apiKey;
  const assembler = new MessageAssembler();
  const toolDrafts = new Map<number, { id: string; name: string; json: string }>();
  const usageRaw: RawUsage = {};
  let stopReason: StopReason | undefined;
  let stopped = false;

  const stream = postSse({
    url: `${model.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}/v1/messages`,
    headers,
    body: messagesBytes(request),
    signal: request.signal,
    idleTimeoutMs: request.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    model: model.ref,
    profile: auth.id,
  });
  const currentUsage = (): Usage => {
    const usage: Usage = { input: usageRaw.input_tokens ?? 0, output: usageRaw.output_tokens ?? 0 };
    if (usageRaw.cache_read_input_tokens) usage.cacheRead = usageRaw.cache_read_input_tokens;
    if (usageRaw.cache_creation_input_tokens) usage.cacheWrite = usageRaw.cache_creation_input_tokens;
    return withCost(usage, model.cost);
  };

  try {
    for await (const message of stream) {
      // After message_stop, drain to the end of the body so the connection is reused.
      if (stopped) continue;
      const event = parseEvent(message.data, model.ref);
      const type = event.type ?? message.event;
      const index = event.index ?? -1;
      if (type === 'error') throw classifyStreamError(event, model.ref, auth.id);
      if (type === 'message_start') {
        Object.assign(usageRaw, event.message?.usage);
      } else if (type === 'content_block_start') {
        const block = event.content_block;
        if (block?.type === 'tool_use') toolDrafts.set(index, { id: block.id ?? '', name: block.name ?? '', json: '' });
        else if (block?.type === 'thinking') assembler.startThinkingBlock();
        else if (block?.type === 'redacted_thinking' && block.data) assembler.addRedactedThinking(block.data);
        else if (block?.type === 'text' && block.text) {
          assembler.appendText(block.text);
          yield { type: 'text_delta', text: block.text };
        }
      } else if (type === 'content_block_delta') {
        const delta = event.delta;
        if (delta?.type === 'text_delta' && typeof delta.text === 'string') {
          assembler.appendText(delta.text);
          yield { type: 'text_delta', text: delta.text };
        } else if (delta?.type === 'thinking_delta' && typeof delta.thinking === 'string') {
          assembler.appendThinking(delta.thinking);
          yield { type: 'thinking_delta', text: delta.thinking };
        } else if (delta?.type === 'signature_delta' && typeof delta.signature === 'string') {
          assembler.setThinkingSignature(delta.signature);
        } else if (delta?.type === 'input_json_delta' && typeof delta.partial_json === 'string') {
          const draft = toolDrafts.get(index);
          if (draft) draft.json += delta.partial_json;
        }
      } else if (type === 'content_block_stop') {
        const draft = toolDrafts.get(index);
        if (draft) {
          toolDrafts.delete(index);
          const parsed = parseToolArguments(draft.json);
          assembler.addToolCall(draft.id, draft.name, parsed.arguments);
          const call: ProviderEvent = { type: 'tool_call', id: draft.id, name: draft.name, arguments: parsed.arguments };
          if (parsed.invalid !== undefined) call.invalidArguments = parsed.invalid;
          yield call;
        }
      } else if (type === 'message_delta') {
        if (event.delta?.stop_reason) stopReason = stopReasons[event.delta.stop_reason] ?? 'stop';
        Object.assign(usageRaw, event.usage);
      } else if (type === 'message_stop') {
        stopped = true;
      }
    }
  } catch (error) {
    if (error instanceof ProviderError) error.afterOutput = assembler.emitted;
    throw error;
  }
  if (!stopped) {
    throw new ProviderError('network', `${model.ref}: the stream ended before the reply was complete. Try again.`, {
      model: model.ref,
      profile: auth.id,
      afterOutput: assembler.emitted,
    });
  }
  const usage = currentUsage();
  yield { type: 'usage', usage };
  yield { type: 'done', stopReason: finalStopReason(stopReason, assembler), content: assembler.content(), usage, model: model.ref, profile: auth.id };
}

function parseEvent(data: string, model: string): StreamEvent {
  try {
    return JSON.parse(data) as StreamEvent;
  } catch (error) {
    throw new ProviderError('server', `${model} sent a malformed stream event. Try again.`, { model, cause: error });
  }
}
