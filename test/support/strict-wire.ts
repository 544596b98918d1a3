/**
 * What the real model APIs refuse, as the fakes refuse it: each rule is one
 * the API reference states (or the API's own error text for it), checked on
 * the request body before any scripted reply. A rule broken answers 400
 * `invalid_request_error` with the API's message, so a request claw builds
 * wrong fails here as it would in production, and a test can pin each rule.
 */

type Json = Record<string, unknown>;

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const PROPERTY_KEY = /^[a-zA-Z0-9_.-]{1,64}$/;
const MAX_CACHE_CONTROL = 4;
const knownBlocks = new Set(['text', 'image', 'document', 'thinking', 'redacted_thinking', 'tool_use', 'tool_result']);

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every property key of a JSON Schema, at any depth. */
function* propertyKeys(schema: unknown): Generator<string> {
  if (Array.isArray(schema)) {
    for (const item of schema) yield* propertyKeys(item);
    return;
  }
  if (!isRecord(schema)) return;
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && isRecord(value)) {
      for (const [name, sub] of Object.entries(value)) {
        yield name;
        yield* propertyKeys(sub);
      }
    } else yield* propertyKeys(value);
  }
}

/** The format the bytes are in, from their first bytes (what the API checks against the declared media type). */
export function sniffImage(base64: string): string | undefined {
  const head = Buffer.from(base64.slice(0, 24), 'base64');
  if (head[0] === 0x89 && head.subarray(1, 4).toString('latin1') === 'PNG') return 'image/png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.subarray(0, 4).toString('latin1') === 'GIF8') return 'image/gif';
  if (head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  return undefined;
}

function countCacheControl(value: unknown): number {
  if (Array.isArray(value)) return value.reduce<number>((n, item) => n + countCacheControl(item), 0);
  if (!isRecord(value)) return 0;
  return (value.cache_control !== undefined ? 1 : 0) + Object.values(value).reduce<number>((n, item) => n + countCacheControl(item), 0);
}

function anthropicBlock(block: Json, at: string, role: string): string | undefined {
  if (block.type === 'text') {
    if (typeof block.text !== 'string' || block.text === '') return `${at}: text content blocks must be non-empty`;
    if (block.text.trim() === '') return `${at}: text content blocks must contain non-whitespace text`;
  }
  if (block.type === 'thinking' && (typeof block.signature !== 'string' || block.signature === ''))
    return `${at}.signature: Field required (thinking blocks must be sent back with their signature)`;
  if (block.type === 'redacted_thinking' && (typeof block.data !== 'string' || block.data === '')) return `${at}.data: Field required`;
  if (block.type !== undefined && !knownBlocks.has(String(block.type)))
    return `${at}: Input tag '${String(block.type)}' found using 'type' does not match any of the expected tags`;
  if (block.type === 'image') {
    const source = isRecord(block.source) ? block.source : {};
    const declared = String(source.media_type);
    if (!['image/jpeg', 'image/png', 'image/gif', 'image/webp'].includes(declared))
      return `${at}.source.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`;
    const actual = typeof source.data === 'string' ? sniffImage(source.data) : undefined;
    if (actual !== declared) return `${at}.source: Image does not match the provided media type ${declared}`;
  }
  if ((block.type === 'tool_use' || block.type === 'thinking' || block.type === 'redacted_thinking') && role !== 'assistant')
    return `${at}: ${String(block.type)} blocks are only allowed in assistant messages`;
  if (block.type === 'tool_result') {
    if (role !== 'user') return `${at}: tool_result blocks are only allowed in user messages`;
    if (Array.isArray(block.content)) {
      for (const [i, part] of block.content.entries()) {
        const problem = isRecord(part) ? anthropicBlock(part, `${at}.content.${i}`, 'user') : `${at}.content.${i}: Input should be an object`;
        if (problem) return problem;
      }
    }
  }
  return undefined;
}

/** Anthropic Messages (`POST /v1/messages`). */
export function anthropicRefusal(body: Json): string | undefined {
  if (typeof body.model !== 'string') return 'model: Field required';
  if (!Number.isInteger(body.max_tokens) || (body.max_tokens as number) < 1) return 'max_tokens: Field required';
  if (!Array.isArray(body.messages) || body.messages.length === 0) return 'messages: at least one message is required';
  const tools = Array.isArray(body.tools) ? (body.tools as Json[]) : [];
  for (const [i, tool] of tools.entries()) {
    if (typeof tool.name !== 'string' || !TOOL_NAME.test(tool.name)) return `tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`;
    const schema = isRecord(tool.input_schema) ? tool.input_schema : undefined;
    if (schema?.type !== 'object') return `tools.${i}.custom.input_schema.type: Input should be 'object'`;
    for (const key of propertyKeys(schema))
      if (!PROPERTY_KEY.test(key)) return `tools.${i}.custom.input_schema: Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'`;
  }
  if (countCacheControl(body) > MAX_CACHE_CONTROL) return `A maximum of ${MAX_CACHE_CONTROL} blocks with cache_control may be provided.`;
  if (isRecord(body.thinking) && body.thinking.type === 'enabled') {
    const budget = body.thinking.budget_tokens;
    if (!Number.isInteger(budget) || (budget as number) < 1024) return 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024';
    if ((budget as number) >= (body.max_tokens as number)) return '`max_tokens` must be greater than `thinking.budget_tokens`.';
  }
  const messages = body.messages as Json[];
  for (const [m, message] of messages.entries()) {
    const role = String(message.role);
    if (role !== 'user' && role !== 'assistant') return `messages.${m}.role: Input should be 'user' or 'assistant'`;
    const content = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    if (!Array.isArray(content)) return `messages.${m}.content: Input should be a valid list`;
    if (content.length === 0 && !(role === 'assistant' && m === messages.length - 1)) return `messages.${m}: all messages must have non-empty content`;
    for (const [b, block] of content.entries()) {
      const problem = isRecord(block) ? anthropicBlock(block, `messages.${m}.content.${b}`, role) : `messages.${m}.content.${b}: Input should be an object`;
      if (problem) return problem;
    }
    // Every tool_use is answered at the start of the very next message, and every tool_result answers one.
    const uses = content.filter((block): block is Json => isRecord(block) && block.type === 'tool_use').map((block) => String(block.id));
    const next = messages[m + 1];
    const answered = Array.isArray(next?.content)
      ? (next.content as Json[]).filter((block) => isRecord(block) && block.type === 'tool_result').map((block) => String(block.tool_use_id))
      : [];
    if (role === 'assistant' && uses.some((id) => !answered.includes(id)))
      return `messages.${m + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${uses.filter((id) => !answered.includes(id)).join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
    if (role === 'user') {
      const previous = messages[m - 1];
      const offered = Array.isArray(previous?.content)
        ? (previous.content as Json[]).filter((block) => isRecord(block) && block.type === 'tool_use').map((block) => String(block.id))
        : [];
      for (const block of content as Json[]) {
        if (isRecord(block) && block.type === 'tool_result' && !offered.includes(String(block.tool_use_id)))
          return `messages.${m}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(block.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
      }
    }
  }
  return undefined;
}

/** OpenAI Chat Completions (`POST /v1/chat/completions`). */
export function openAiRefusal(body: Json): string | undefined {
  if (typeof body.model !== 'string') return 'you must provide a model parameter';
  if (!Array.isArray(body.messages) || body.messages.length === 0) return "[] is too short - 'messages'";
  const tools = Array.isArray(body.tools) ? (body.tools as Json[]) : [];
  if (tools.length > 128)
    return `Invalid 'tools': array too long. Expected an array with maximum length 128, but got an array with length ${tools.length} instead.`;
  for (const [i, tool] of tools.entries()) {
    const fn = isRecord(tool.function) ? tool.function : {};
    if (typeof fn.name !== 'string' || !TOOL_NAME.test(fn.name))
      return `Invalid 'tools[${i}].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`;
    if (typeof fn.description === 'string' && fn.description.length > 1024)
      return `Invalid 'tools[${i}].function.description': string too long. Expected a string with maximum length 1024, but got a string with length ${fn.description.length} instead.`;
    if (fn.parameters !== undefined && (!isRecord(fn.parameters) || fn.parameters.type !== 'object'))
      return `Invalid schema for function '${fn.name}': schema must be a JSON Schema of 'type: "object"', got 'type: "${String(isRecord(fn.parameters) ? fn.parameters.type : 'None')}"'.`;
  }
  const messages = body.messages as Json[];
  const open = new Set<string>();
  for (const [m, message] of messages.entries()) {
    const role = String(message.role);
    if (role !== 'tool' && open.size > 0)
      return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open].join(', ')}`;
    if (role === 'assistant') {
      const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as Json[]) : [];
      const hasContent = typeof message.content === 'string' ? message.content !== '' : Array.isArray(message.content) && message.content.length > 0;
      if (!hasContent && calls.length === 0)
        return `Invalid value for 'content': expected a string, got null. (messages[${m}]: an assistant message needs content or tool_calls)`;
      for (const call of calls) open.add(String(call.id));
    } else if (role === 'tool') {
      const id = String(message.tool_call_id);
      if (!open.delete(id)) return `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.`;
      if (Array.isArray(message.content) && (message.content as Json[]).some((part) => part.type !== 'text'))
        return `Invalid 'messages[${m}]'. Image URLs are only allowed for messages with role 'user', but this message with role 'tool' contains an image URL.`;
    } else if (role === 'user' && Array.isArray(message.content)) {
      for (const [p, part] of (message.content as Json[]).entries()) {
        if (part.type !== 'image_url') continue;
        const url = isRecord(part.image_url) ? String(part.image_url.url) : '';
        const match = /^data:([^;]+);base64,(.*)$/s.exec(url);
        if (match && sniffImage(match[2]!) !== match[1])
          return `Invalid 'messages[${m}].content[${p}].image_url': the image data is not a valid ${match[1]} (You uploaded an unsupported image. Please make sure your image is valid.)`;
      }
    } else if (role !== 'system' && role !== 'developer' && role !== 'user') {
      return `Invalid value: '${role}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`;
    }
  }
  if (open.size > 0)
    return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open].join(', ')}`;
  return undefined;
}
