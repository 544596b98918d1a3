import type { ProviderMessage, ThinkingLevel, ToolSchema, WireRequest } from './types.js';
import { normalizeTools } from './tool-schema.js';

type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** Transcript messages → Chat Completions messages (thinking is not sent back). */
export function toChatMessages(system: string, messages: readonly ProviderMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  if (system) out.push({ role: 'system', content: system });
  for (const message of messages) {
    if (message.role === 'user') out.push({ role: 'user', content: message.content });
    else if (message.role === 'toolResult') {
      out.push({ role: 'tool', tool_call_id: message.toolCallId, content: message.isError ? `Error: ${message.content}` : message.content });
    } else {
      const text = message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
      const calls = message.content.flatMap((block) =>
        block.type === 'toolCall'
          ? [{ id: block.id, type: 'function' as const, function: { name: block.name, arguments: JSON.stringify(block.arguments) } }]
          : [],
      );
      if (!text && calls.length === 0) continue;
      out.push(calls.length > 0 ? { role: 'assistant', content: text || null, tool_calls: calls } : { role: 'assistant', content: text });
    }
  }
  return out;
}

function toChatTools(tools: readonly ToolSchema[]): unknown[] {
  return normalizeTools(tools).map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

const effort: Record<Exclude<ThinkingLevel, 'off'>, string> = { minimal: 'minimal', low: 'low', medium: 'medium', high: 'high' };

export function chatCompletionsBody(request: WireRequest): Record<string, unknown> {
  const { model } = request;
  const body: Record<string, unknown> = {
    model: model.id,
    messages: toChatMessages(request.system, request.messages),
    stream: true,
    stream_options: { include_usage: true },
  };
  // api.openai.com wants max_completion_tokens (reasoning models refuse max_tokens); compatible servers know max_tokens.
  body[model.provider === 'openai' ? 'max_completion_tokens' : 'max_tokens'] = request.maxOutputTokens;
  if (request.tools.length > 0) body.tools = toChatTools(request.tools);
  if (model.reasoning && request.thinking !== 'off') {
    // Only the gpt-5 family knows `minimal`; o-series models refuse it.
    const level = request.thinking === 'minimal' && !model.id.startsWith('gpt-5') ? 'low' : request.thinking;
    body.reasoning_effort = effort[level];
  }
  return body;
}
