import type { TranscriptEntry } from '../protocol/index.js';
import type { ResultStatus } from './records.js';

/**
 * A child's result read back from its transcript, for a crash that fell after
 * its final reply was written and before its inbox line: the last assistant
 * text after the task message, or the failure the lane recorded.
 */
export function resultFromTranscript(entries: readonly TranscriptEntry[], messageId: string): { status: ResultStatus; text: string } | undefined {
  const start = entries.findIndex((e) => e.type === 'message' && e.role === 'user' && e.meta?.messageId === messageId);
  if (start < 0) return undefined;
  let found: { status: ResultStatus; text: string } | undefined;
  for (const entry of entries.slice(start + 1)) {
    if (entry.type === 'message' && entry.role === 'assistant' && !entry.content.some((b) => b.type === 'toolCall')) {
      const text = entry.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
      if (text.trim()) found = { status: 'done', text };
    }
    if (entry.type === 'custom' && entry.customType === 'turn_outcome') {
      const data = entry.data as { status?: unknown; error?: unknown } | null;
      const status = data?.status === 'aborted' ? 'cancelled' : 'failed';
      found = { status, text: typeof data?.error === 'string' ? data.error : 'the child run failed' };
    }
  }
  return found;
}
