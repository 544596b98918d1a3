import { describe, expect, it } from 'vitest';
import { assembleContext, compactionHistory, compactionUndoEntry } from '../../source/agent/context/index.js';
import { quietRunEntry, type TranscriptEntry } from '../../source/protocol/index.js';
import { assistant, compaction, custom, user } from './history-builders.js';

/** What a fresh array with the same entries assembles to: the reference a reused view must match. */
function fresh(entries: readonly TranscriptEntry[]): { view: ReturnType<typeof assembleContext>; compactions: ReturnType<typeof compactionHistory> } {
  return { view: assembleContext([...entries]), compactions: compactionHistory([...entries]) };
}

function heartbeat(content: string, messageId: string): TranscriptEntry {
  return { ...user(content), meta: { synthetic: 'heartbeat', messageId } } as TranscriptEntry;
}

// A session's entries are one array that grows by push; views of it are reused and extended.
describe('assembling a growing transcript', () => {
  it('matches a fresh assembly after every append: messages, a compaction, an undo, a quiet run', () => {
    const entries: TranscriptEntry[] = [user('first'), assistant('one')];
    const check = (): void => {
      expect({ view: assembleContext(entries), compactions: compactionHistory(entries) }).toEqual(fresh(entries));
    };
    check();
    entries.push(user('second'));
    check();
    entries.push(assistant('two'), user('third'));
    check();
    const summary = compaction('S1', entries[2]!.id);
    entries.push(summary);
    check();
    expect(assembleContext(entries).messages[0]!.content).toContain('S1');
    entries.push(assistant('three'));
    check();
    expect(assembleContext(entries).freshFrom).toBe(assembleContext(entries).messages.length - 1);
    entries.push({ ...custom('x', null), ...compactionUndoEntry(summary.id) } as TranscriptEntry);
    check();
    expect(compactionHistory(entries)).toEqual([]);
    const prompt = heartbeat('heartbeat check', 'hb-1');
    entries.push(prompt, assistant('nothing to report'));
    check();
    entries.push({ ...custom('x', null), ...quietRunEntry('hb-1') } as TranscriptEntry);
    check();
    expect(assembleContext(entries).messages.map((message) => message.id)).not.toContain(prompt.id);
    // After a quiet run, a late message of that run stays hidden like the rest of it.
    entries.push(assistant('late part of the heartbeat run'));
    check();
    entries.push(user('back to work'), assistant('sure'));
    check();
  });

  it('hands each caller its own array', () => {
    const entries: TranscriptEntry[] = [user('first'), assistant('one')];
    const first = assembleContext(entries);
    first.messages.push(user('not in the transcript'));
    expect(assembleContext(entries).messages).toHaveLength(2);
  });
});
