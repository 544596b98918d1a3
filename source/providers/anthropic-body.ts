import { messagesBody } from './anthropic-messages.js';
import { JsonStringEncoder, utf8 } from './json-bytes.js';
import type { WireRequest } from './types.js';

const systemPrompts = new JsonStringEncoder();

/**
 * The Messages API request as UTF-8 JSON, the same document as
 * JSON.stringify(messagesBody(request)), with the system prompt (most of the
 * bytes) encoded only where it changed since the last call.
 */
export function messagesBytes(request: WireRequest): Buffer {
  const { system: _system, ...rest } = messagesBody(request);
  const json = JSON.stringify(rest);
  if (!request.system) return utf8(json);
  return Buffer.concat([utf8(json.slice(0, -1)), Buffer.from(',"system":'), ...systemPrompts.encode(request.system), Buffer.from('}')]);
}
