import type { ProviderError } from './errors.js';
import type { ProviderMessage, ToolSchema } from './types.js';

export interface RepairableRequest {
  messages: readonly ProviderMessage[];
  tools: readonly ToolSchema[];
}

export interface Repair extends RepairableRequest {
  /** What was changed, for the retry event and the log: "dropped 2 thinking blocks". */
  changes: string[];
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Drops the tool the provider named (`tools.3…`, `tools[3]…`): one bad schema must not stop the session. */
function withoutNamedTool(request: RepairableRequest, error: ProviderError, changes: string[]): readonly ToolSchema[] {
  const index = Number(/tools(?:\.|\[)(\d+)/.exec(error.detail ?? error.message)?.[1]);
  const tool = Number.isInteger(index) ? request.tools[index] : undefined;
  if (!tool) return request.tools;
  changes.push(`left out the tool ${tool.name}, whose schema was refused`);
  return request.tools.filter((_, i) => i !== index);
}

/**
 * Every tool call answered by the very next results and every result answering
 * a call: what both APIs require, whatever a crash or an edit left behind.
 */
function paired(messages: readonly ProviderMessage[], changes: string[]): ProviderMessage[] {
  const out: ProviderMessage[] = [];
  let added = 0;
  let dropped = 0;
  let open = new Map<string, string>();
  const closeOpen = (): void => {
    for (const [id, name] of open) {
      out.push({ role: 'toolResult', toolCallId: id, toolName: name, content: '[no result was recorded for this call]', isError: true });
      added += 1;
    }
    open = new Map();
  };
  for (const message of messages) {
    if (message.role === 'toolResult') {
      if (!open.delete(message.toolCallId)) {
        dropped += 1;
        continue;
      }
      out.push(message);
      continue;
    }
    closeOpen();
    out.push(message);
    if (message.role === 'assistant') for (const block of message.content) if (block.type === 'toolCall') open.set(block.id, block.name);
  }
  closeOpen();
  if (added > 0) changes.push(`answered ${plural(added, 'unanswered tool call')}`);
  if (dropped > 0) changes.push(`left out ${plural(dropped, 'tool result')} without a call`);
  return out;
}

/**
 * A conservative form of a request the provider refused as invalid: what the
 * error names is left out, thinking and images are left out, tool calls are
 * paired. The transcript keeps everything; only this request changes. Returns
 * undefined when nothing could be changed (the refusal is not the history's).
 */
export function repairRequest(request: RepairableRequest, error: ProviderError): Repair | undefined {
  const changes: string[] = [];
  const tools = withoutNamedTool(request, error, changes);
  let thinking = 0;
  let media = 0;
  const plain = request.messages.map((message): ProviderMessage => {
    if (message.role === 'assistant') {
      const content = message.content.filter((block) => block.type !== 'thinking');
      thinking += message.content.length - content.length;
      return content.length === message.content.length ? message : { ...message, content };
    }
    if (message.role === 'toolResult' && message.attachments?.length) {
      media += message.attachments.length;
      const { attachments: _left, ...rest } = message;
      return { ...rest, content: `${message.content}\n[${plural(message.attachments.length, 'attachment')} not sent: the provider refused the request]` };
    }
    return message;
  });
  if (thinking > 0) changes.push(`left out ${plural(thinking, 'thinking block')}`);
  if (media > 0) changes.push(`left out ${plural(media, 'image')}`);
  const messages = paired(plain, changes);
  return changes.length > 0 ? { messages, tools, changes } : undefined;
}
