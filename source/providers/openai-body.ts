import { jsonBytes, JsonStringEncoder } from './json-bytes.js';
import { openAiMedia } from './media-parts.js';
import { chatCompletionsOptions, chatDescription, mediaMessage, toChatMessage, type UserPart } from './openai-messages.js';
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

/**
 * The encoded history of the last call of the most recent conversations
 * (keyed by their first message): the next call sends the same messages plus
 * one or two, so the run of them is one piece instead of one lookup and one
 * copy per message. Only the conversations active lately keep theirs: each
 * is a copy of the whole history, and a gateway holds hundreds of sessions.
 */
const runs = new Map<ProviderMessage, { messages: readonly ProviderMessage[]; bytes: Buffer }>();
const RUNS_KEPT = 16;

function hasAttachments(message: ProviderMessage): boolean {
  return message.role === 'toolResult' && (message.attachments?.length ?? 0) > 0;
}

/** How many leading messages the last call's run covers, or 0 when it is not a prefix of these. */
function reusedRun(messages: readonly ProviderMessage[]): { count: number; bytes: Buffer } {
  const first = messages[0];
  const run = first ? runs.get(first) : undefined;
  if (!run || run.messages.length > messages.length) return { count: 0, bytes: NOTHING };
  for (let index = run.messages.length - 1; index >= 0; index -= 1) if (run.messages[index] !== messages[index]) return { count: 0, bytes: NOTHING };
  return { count: run.messages.length, bytes: run.bytes };
}

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
  const bytes = jsonBytes({ type: 'function', function: { name: tool.name, description: chatDescription(tool.description), parameters: tool.parameters } });
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
  // Runs hold plain messages only: media depends on the model and moves to the round's end.
  const plain = !request.messages.some(hasAttachments);
  const reused = plain ? reusedRun(request.messages) : { count: 0, bytes: NOTHING };
  const historyFrom = pieces.length + (first ? 0 : 1);
  push(reused.bytes);
  for (const message of request.messages.slice(reused.count)) {
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
  const historyTo = pieces.length;
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
  const body = Buffer.concat(pieces);
  const first0 = request.messages[0];
  if (plain && first0 && historyTo > historyFrom) {
    // The history's bytes within the body, which nothing changes once sent.
    let start = 0;
    for (let index = 0; index < historyFrom; index += 1) start += pieces[index]!.length;
    let end = start;
    for (let index = historyFrom; index < historyTo; index += 1) end += pieces[index]!.length;
    // A copy of the history alone: a view would keep the whole body (system prompt, tool schemas) alive with it.
    const history = Buffer.allocUnsafeSlow(end - start);
    body.copy(history, 0, start, end);
    runs.delete(first0);
    runs.set(first0, { messages: [...request.messages], bytes: history });
    if (runs.size > RUNS_KEPT) runs.delete(runs.keys().next().value as ProviderMessage);
  }
  return body;
}
