import { randomUUID } from 'node:crypto';
import type { HistoryMessage } from '../../source/agent/index.js';
import type { CompactionEntry, TranscriptEntry } from '../../source/protocol/index.js';

let clock = 1_700_000_000_000;
const stamp = (): { id: string; parentId: null; timestamp: number } => ({ id: randomUUID(), parentId: null, timestamp: (clock += 1000) });

export function user(content: string): HistoryMessage {
  return { ...stamp(), type: 'message', role: 'user', content };
}

export function assistant(text: string): HistoryMessage {
  return { ...stamp(), type: 'message', role: 'assistant', content: [{ type: 'text', text }], stopReason: 'stop' };
}

export function toolCall(calls: Array<{ id: string; name: string; arguments?: Record<string, unknown> }>): HistoryMessage {
  return {
    ...stamp(),
    type: 'message',
    role: 'assistant',
    content: calls.map((call) => ({ type: 'toolCall' as const, id: call.id, name: call.name, arguments: call.arguments ?? {} })),
    stopReason: 'toolUse',
  };
}

export function toolResult(toolCallId: string, content: string, toolName = 'read'): HistoryMessage {
  return { ...stamp(), type: 'message', role: 'toolResult', toolCallId, toolName, content, isError: false };
}

export function compaction(summary: string, firstKeptEntryId: string, tokensBefore = 1000, tokensAfter = 100): CompactionEntry {
  return { ...stamp(), type: 'compaction', summary, firstKeptEntryId, tokensBefore, tokensAfter };
}

export function custom(customType: string, data: unknown): TranscriptEntry {
  return { ...stamp(), type: 'custom', customType, data };
}

/** `n` words of filler: about `n` × 1.5 tokens with the default estimator. */
export function words(n: number, seed = 'lorem'): string {
  return Array.from({ length: n }, (_, index) => `${seed}${index % 10}`).join(' ');
}

/**
 * A conversation of `rounds` rounds: user ask, a tool call with its result,
 * an answer. Identifiers are sprinkled into the first rounds.
 */
export function conversation(rounds: number, fill = 200): HistoryMessage[] {
  const out: HistoryMessage[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const id = `call_${round}`;
    out.push(user(`Round ${round}: ${words(fill, 'ask')}`));
    out.push(toolCall([{ id, name: 'read', arguments: { path: `/srv/app/file${round}.txt` } }]));
    out.push(toolResult(id, words(fill, 'out')));
    out.push(assistant(`Answer ${round}: ${words(fill / 2, 'ans')}`));
  }
  return out;
}
