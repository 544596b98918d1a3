import type { Core } from '../../source/core/index.js';
import type { TranscriptEntry } from '../../source/protocol/index.js';
import type { FakeReply, RecordedRequest } from '../support/fake-llm-common.js';

interface WireMessage {
  role: string;
  content?: unknown;
  tool_calls?: Array<{ function: { name: string; arguments: string } }>;
}

export function messagesOf(request: RecordedRequest): WireMessage[] {
  return (request.body.messages ?? []) as WireMessage[];
}

export function textOf(message: WireMessage | undefined): string {
  if (!message) return '';
  return typeof message.content === 'string' ? message.content : JSON.stringify(message.content ?? '');
}

export function toolNamesOf(request: RecordedRequest): string[] {
  return ((request.body.tools ?? []) as Array<{ function: { name: string } }>).map((tool) => tool.function.name);
}

/** The messages after the last user message (this model call's part of the turn). */
export function sinceLastUser(request: RecordedRequest): WireMessage[] {
  const messages = messagesOf(request);
  let index = messages.length - 1;
  while (index >= 0 && messages[index]!.role !== 'user') index -= 1;
  return messages.slice(index + 1);
}

export function lastUserText(request: RecordedRequest): string {
  return textOf([...messagesOf(request)].reverse().find((m) => m.role === 'user'));
}

export function isChildRequest(request: RecordedRequest): boolean {
  return messagesOf(request).some((m) => m.role === 'user' && textOf(m).includes('[subagent task from'));
}

export function calledSince(request: RecordedRequest, tool: string): boolean {
  return sinceLastUser(request).some((m) => m.tool_calls?.some((call) => call.function.name === tool));
}

/** A child answers with a line naming its task's label. */
export function childReply(request: RecordedRequest): FakeReply {
  const task = textOf(messagesOf(request).find((m) => m.role === 'user' && textOf(m).includes('[subagent task from')));
  const label = /: "([^"]+)"\]/.exec(task)?.[1] ?? 'unknown';
  return { text: `finding about ${label}` };
}

export async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function entriesOf(core: Core, sessionKey: string): Promise<readonly TranscriptEntry[]> {
  return (await core.sessions.registry.open(sessionKey)).entries();
}

export function assistantTexts(entries: readonly TranscriptEntry[]): string[] {
  return entries.flatMap((e) =>
    e.type === 'message' && e.role === 'assistant' ? [e.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('')].filter(Boolean) : [],
  );
}

export function userMessages(entries: readonly TranscriptEntry[]): Array<{ text: string; messageId: string | undefined }> {
  return entries.flatMap((e) => (e.type === 'message' && e.role === 'user' ? [{ text: e.content, messageId: e.meta?.messageId }] : []));
}
