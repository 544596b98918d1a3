import { jsonBytes, JsonStringEncoder } from './json-bytes.js';
import { openAiMedia } from './media-parts.js';
import { chatCompletionsOptions, mediaMessage, toChatMessage, type UserPart } from './openai-messages.js';
import { normalizeTools } from './tool-schema.js';
import type { ProviderMessage, ToolSchema, WireRequest } from './types.js';

const COMMA = Buffer.from(',');
const NOTHING = Buffer.alloc(0);

/**
 * The encoded Chat Completions message of a transcript message: entries do
 * not change once written, and every turn sends all of them again. Tool
 * results with media are left out (what they send depends on the model).
 */
const messageBytes = new WeakMap<ProviderMessage, Buffer>();

/** Per normalised schema (registry-owned, the same every turn), its encoded tool. */
const toolBytes = new WeakMap<object, { name: string; description: string; bytes: Buffer }>();

const systemPrompts = new JsonStringEncoder();

function encodedMessage(message: ProviderMessage, limits: ReturnType<typeof openAiMedia>): Buffer {
  let bytes = messageBytes.get(message);
  if (bytes === undefined) {
    const { chat } = toChatMessage(message, limits);
    bytes = chat ? jsonBytes(chat) : NOTHING;
    messageBytes.set(message, bytes);
  }
  return bytes;
}

function encodedTool(tool: ToolSchema): Buffer {
  const cached = toolBytes.get(tool.parameters);
  if (cached && cached.name === tool.name && cached.description === tool.description) return cached.bytes;
  const bytes = jsonBytes({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } });
  toolBytes.set(tool.parameters, { name: tool.name, description: tool.description, bytes });
  return bytes;
}

/**
 * The Chat Completions request as UTF-8 JSON, the same document as
 * JSON.stringify(chatCompletionsBody(request)) but put together from pieces
 * encoded once: only the new messages and the part of the system prompt
 * that changed since the last call are encoded again.
 */
export function chatCompletionsBytes(request: WireRequest): Buffer {
  const pieces: Buffer[] = [Buffer.from(`{"model":${JSON.stringify(request.model.id)},"messages":[`)];
  let first = true;
  const push = (bytes: Buffer): void => {
    if (bytes.length === 0) return;
    if (!first) pieces.push(COMMA);
    first = false;
    pieces.push(bytes);
  };
  if (request.system) {
    push(Buffer.from('{"role":"system","content":'));
    pieces.push(...systemPrompts.encode(request.system), Buffer.from('}'));
  }
  const limits = openAiMedia(request.model.id);
  let media: UserPart[] = [];
  const flushMedia = (): void => {
    if (media.length > 0) push(jsonBytes(mediaMessage(media)));
    media = [];
  };
  for (const message of request.messages) {
    if (message.role !== 'toolResult') flushMedia();
    if (message.role === 'toolResult' && message.attachments?.length) {
      const converted = toChatMessage(message, limits);
      if (converted.chat) push(jsonBytes(converted.chat));
      media.push(...converted.media);
      continue;
    }
    push(encodedMessage(message, limits));
  }
  flushMedia();
  const options = JSON.stringify(chatCompletionsOptions(request));
  pieces.push(Buffer.from(`],${options.slice(1, -1)}`));
  if (request.tools.length > 0) {
    pieces.push(Buffer.from(',"tools":['));
    normalizeTools(request.tools).forEach((tool, index) => {
      if (index > 0) pieces.push(COMMA);
      pieces.push(encodedTool(tool));
    });
    pieces.push(Buffer.from(']'));
  }
  pieces.push(Buffer.from('}'));
  return Buffer.concat(pieces);
}
