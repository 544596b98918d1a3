import { admitMedia, openAiMedia, type MediaLimits } from './media-parts.js';
import { API_LIMITS } from './limits.js';
import type { ProviderMedia, ProviderMessage, ThinkingLevel, ToolSchema, WireRequest } from './types.js';
import { normalizeTools } from './tool-schema.js';

export type UserPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'input_audio'; input_audio: { data: string; format: 'wav' | 'mp3' } };

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | UserPart[] }
  | { role: 'assistant'; content: string | null; tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[] }
  | { role: 'tool'; tool_call_id: string; content: string };

function mediaPart(item: ProviderMedia): UserPart {
  if (item.kind === 'image') return { type: 'image_url', image_url: { url: `data:${item.mimeType};base64,${item.data}` } };
  return { type: 'input_audio', input_audio: { data: item.data, format: /mpeg|mp3/.test(item.mimeType) ? 'mp3' : 'wav' } };
}

/** One transcript message on the wire: its Chat Completions message (none for an empty reply) and the media its tool result adds. */
export interface ChatConversion {
  chat: ChatMessage | undefined;
  media: UserPart[];
}

const NO_MEDIA: UserPart[] = [];

/**
 * One transcript message → its Chat Completions message. Only a tool result
 * with attachments depends on the model (which media it accepts) or adds
 * media; every other message converts the same for any model.
 */
export function toChatMessage(message: ProviderMessage, limits: MediaLimits): ChatConversion {
  if (message.role === 'user') return { chat: { role: 'user', content: message.content }, media: NO_MEDIA };
  if (message.role === 'toolResult') {
    const { accepted, notes } = message.attachments?.length ? admitMedia(message.attachments, limits) : { accepted: [], notes: [] };
    const text = [message.content, ...notes].join('\n');
    const chat: ChatMessage = { role: 'tool', tool_call_id: message.toolCallId, content: message.isError ? `Error: ${text}` : text };
    if (accepted.length === 0) return { chat, media: NO_MEDIA };
    return {
      chat,
      media: [{ type: 'text', text: `Media returned by the ${message.toolName} call ${message.toolCallId}:` }, ...accepted.map(mediaPart)],
    };
  }
  const text = message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
  const calls = message.content.flatMap((block) =>
    block.type === 'toolCall' ? [{ id: block.id, type: 'function' as const, function: { name: block.name, arguments: JSON.stringify(block.arguments) } }] : [],
  );
  if (!text && calls.length === 0) return { chat: undefined, media: NO_MEDIA };
  return { chat: calls.length > 0 ? { role: 'assistant', content: text || null, tool_calls: calls } : { role: 'assistant', content: text }, media: NO_MEDIA };
}

/** The user message that carries a round's tool media, after its tool messages. */
export function mediaMessage(media: UserPart[]): ChatMessage {
  return { role: 'user', content: media };
}

/**
 * Transcript messages → Chat Completions messages (thinking is not sent
 * back). A tool message carries text only, so a round's images and audio
 * follow its tool messages in one user message that names their calls.
 */
export function toChatMessages(system: string, messages: readonly ProviderMessage[], modelId = ''): ChatMessage[] {
  const out: ChatMessage[] = [];
  if (system) out.push({ role: 'system', content: system });
  const limits = openAiMedia(modelId);
  let media: UserPart[] = [];
  const flushMedia = (): void => {
    if (media.length > 0) out.push(mediaMessage(media));
    media = [];
  };
  for (const message of messages) {
    if (message.role !== 'toolResult') flushMedia();
    const converted = toChatMessage(message, limits);
    if (converted.chat) out.push(converted.chat);
    if (converted.media.length > 0) media.push(...converted.media);
  }
  flushMedia();
  return out;
}

const CHAT_DESCRIPTION_LIMIT = API_LIMITS.openai.maxDescription ?? Number.POSITIVE_INFINITY;
const CUT_MARK = ' […]';

/** A tool description as Chat Completions takes it: cut, with a mark, when over the limit. */
export function chatDescription(description: string): string {
  return description.length <= CHAT_DESCRIPTION_LIMIT ? description : `${description.slice(0, CHAT_DESCRIPTION_LIMIT - CUT_MARK.length)}${CUT_MARK}`;
}

export function toChatTools(tools: readonly ToolSchema[]): unknown[] {
  return normalizeTools(tools).map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: chatDescription(tool.description), parameters: tool.parameters },
  }));
}

const effort: Record<Exclude<ThinkingLevel, 'off'>, string> = { minimal: 'minimal', low: 'low', medium: 'medium', high: 'high' };

export function chatCompletionsBody(request: WireRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: request.model.id,
    messages: toChatMessages(request.system, request.messages, request.model.id),
    ...chatCompletionsOptions(request),
  };
  if (request.tools.length > 0) body.tools = toChatTools(request.tools);
  return body;
}

/** The body's fields besides the model, the messages and the tools. */
export function chatCompletionsOptions(request: WireRequest): Record<string, unknown> {
  const { model } = request;
  const options: Record<string, unknown> = { stream: true, stream_options: { include_usage: true } };
  // api.openai.com wants max_completion_tokens (reasoning models refuse max_tokens); compatible servers know max_tokens.
  options[model.provider === 'openai' ? 'max_completion_tokens' : 'max_tokens'] = request.maxOutputTokens;
  if (model.reasoning && request.thinking !== 'off') {
    // Only the gpt-5 family knows `minimal`; o-series models refuse it.
    const level = request.thinking === 'minimal' && !model.id.startsWith('gpt-5') ? 'low' : request.thinking;
    options.reasoning_effort = effort[level];
  }
  return options;
}
