import { describe, expect, it } from 'vitest';
import { assembleContext, compactionHistory, compactionUndoEntry, effectiveCompaction, SUMMARY_PREFIX } from '../../source/agent/context/index.js';
import type { TranscriptEntry } from '../../source/protocol/index.js';
import { assistant, compaction, custom, toolCall, toolResult, user } from './history-builders.js';

function undo(compactionId: string): TranscriptEntry {
  return { ...custom('x', null), ...compactionUndoEntry(compactionId) } as TranscriptEntry;
}

describe('assembleContext', () => {
  const a = user('first');
  const b = assistant('one');
  const c = user('second');
  const d = toolCall([{ id: 't', name: 'read' }]);
  const e = toolResult('t', 'content');
  const f = assistant('two');

  it('passes every message through when nothing was compacted, skipping bookkeeping entries', () => {
    const entries: TranscriptEntry[] = [a, b, custom('turn_outcome', {}), c];
    expect(assembleContext(entries).messages).toEqual([a, b, c]);
  });

  it('uses the summary and the entries from the first kept one on', () => {
    const first = compaction('S1', c.id);
    const assembled = assembleContext([a, b, c, d, e, first, f]);
    expect(assembled.compaction).toBe(first);
    expect(assembled.messages.map((m) => m.role)).toEqual(['user', 'user', 'assistant', 'toolResult', 'assistant']);
    expect(assembled.messages[0]).toMatchObject({ content: `${SUMMARY_PREFIX}S1`, meta: { synthetic: 'compaction' } });
    expect(assembled.messages.slice(1)).toEqual([c, d, e, f]);
    // Only f was appended after the compaction.
    expect(assembled.freshFrom).toBe(4);
  });

  it('honours an undo: the view returns to the previous compaction, then to none', () => {
    const first = compaction('S1', b.id);
    const second = compaction('S2', d.id);
    const entries: TranscriptEntry[] = [a, b, first, c, d, e, second, f];
    expect(assembleContext(entries).messages[0]!.content).toBe(`${SUMMARY_PREFIX}S2`);
    entries.push(undo(second.id));
    expect(effectiveCompaction(entries)?.entry).toBe(first);
    expect(assembleContext(entries).messages).toEqual([assembleContext([a, b, first]).messages[0], b, c, d, e, f]);
    entries.push(undo(first.id));
    expect(assembleContext(entries).messages).toEqual([a, b, c, d, e, f]);
    expect(compactionHistory(entries)).toEqual([]);
  });

  it('a compaction after an undo is in force again', () => {
    const first = compaction('S1', c.id);
    const again = compaction('S1b', d.id);
    const entries: TranscriptEntry[] = [a, b, c, first, undo(first.id), d, e, again, f];
    expect(assembleContext(entries).compaction).toBe(again);
    expect(compactionHistory(entries).map((record) => record.id)).toEqual([again.id]);
  });

  it('lists compactions in force with before and after', () => {
    const first = compaction('S1', c.id, 9_000, 2_000);
    expect(compactionHistory([a, b, c, first])).toEqual([{ id: first.id, at: first.timestamp, before: 9_000, after: 2_000 }]);
  });
});
