import { admitMedia, ANTHROPIC_MEDIA } from './media-parts.js';
import type { AssistantBlock, ProviderMessage, ThinkingLevel, WireRequest } from './types.js';
import { normalizeTools } from './tool-schema.js';

type ResultPart = { type: 'text'; text: string } | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } };

type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content: string | ResultPart[]; is_error?: boolean };

/** A tool result's text, then its images as image parts (within the API's limits). */
function toolResultContent(message: Extract<ProviderMessage, { role: 'toolResult' }>): string | ResultPart[] {
  if (!message.attachments?.length) return message.content;
  const { accepted, notes } = admitMedia(message.attachments, ANTHROPIC_MEDIA);
  const text = [message.content, ...notes].filter(hasText).join('\n');
  return [
    ...(text ? [{ type: 'text' as const, text }] : []),
    ...accepted.map((item) => ({ type: 'image' as const, source: { type: 'base64' as const, media_type: item.mimeType, data: item.data } })),
  ];
}

/** The API refuses a text block that is empty or only whitespace (models emit "\n\n" before a tool call). */
const hasText = (text: string): boolean => text.trim() !== '';

function assistantBlocks(block: AssistantBlock): ContentBlock[] {
  if (block.type === 'text') return hasText(block.text) ? [{ type: 'text', text: block.text }] : [];
  if (block.type === 'toolCall') return [{ type: 'tool_use', id: block.id, name: block.name, input: block.arguments }];
  if (!block.signature) return [];
  return block.redacted ? [{ type: 'redacted_thinking', data: block.signature }] : [{ type: 'thinking', thinking: block.text, signature: block.signature }];
}

interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: ContentBlock[];
}

/**
 * Transcript messages → Messages API turns. Tool results travel in a user
 * turn; consecutive same-role turns are merged so roles alternate. Thinking
 * goes back only with its signature (the API rejects unsigned thinking, which
 * is what an abort in the middle of thinking leaves).
 */
export function toAnthropicMessages(messages: readonly ProviderMessage[]): AnthropicMessage[] {
  const out: AnthropicMessage[] = [];
  const push = (role: AnthropicMessage['role'], blocks: ContentBlock[]): void => {
    if (blocks.length === 0) return;
    const last = out.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const message of messages) {
    if (message.role === 'user') push('user', hasText(message.content) ? [{ type: 'text', text: message.content }] : []);
    else if (message.role === 'toolResult') {
      const block: ContentBlock = { type: 'tool_result', tool_use_id: message.toolCallId, content: toolResultContent(message) };
      if (message.isError) block.is_error = true;
      push('user', [block]);
    } else push('assistant', message.content.flatMap(assistantBlocks));
  }
  return out;
}

const MIN_THINKING_BUDGET = 1024;
const thinkingBudget: Record<Exclude<ThinkingLevel, 'off'>, number> = { minimal: 1024, low: 4096, medium: 10_000, high: 32_000 };

/** max_tokens must exceed the thinking budget, so thinking raises it (within the model's limit). */
export function planThinking(level: ThinkingLevel, requestedMax: number, modelMax: number): { maxTokens: number; budget: number | undefined } {
  if (level === 'off') return { maxTokens: requestedMax, budget: undefined };
  const maxTokens = Math.min(modelMax, Math.max(requestedMax, thinkingBudget[level] + 4096));
  const budget = Math.min(thinkingBudget[level], maxTokens - MIN_THINKING_BUDGET);
  return budget < MIN_THINKING_BUDGET ? { maxTokens: requestedMax, budget: undefined } : { maxTokens, budget };
}

export function messagesBody(request: WireRequest): Record<string, unknown> {
  const plan = request.model.reasoning
    ? planThinking(request.thinking, request.maxOutputTokens, request.model.maxOutput)
    : { maxTokens: request.maxOutputTokens, budget: undefined };
  const body: Record<string, unknown> = {
    model: request.model.id,
    max_tokens: plan.maxTokens,
    messages: toAnthropicMessages(request.messages),
    stream: true,
  };
  if (request.system) body.system = request.system;
  if (request.tools.length > 0) {
    body.tools = normalizeTools(request.tools).map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.parameters }));
  }
  if (plan.budget !== undefined) body.thinking = { type: 'enabled', budget_tokens: plan.budget };
  return body;
}
