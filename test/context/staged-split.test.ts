import { describe, expect, it } from 'vitest';
import { groupUnits, maxChunkTokens, SAFETY_MARGIN, splitForCompaction, stageChunks, type Unit } from '../../source/agent/compaction/index.js';
import { summaryMessage } from '../../source/agent/context/index.js';
import type { HistoryMessage } from '../../source/agent/index.js';
import { assistant, compaction, conversation, toolCall, toolResult, user, words } from './history-builders.js';

/** Every tool call's result sits in the same unit as the call. */
function pairsIntact(units: readonly Unit[]): boolean {
  return units.every((unit) => {
    const calls = unit.messages.flatMap((message) =>
      message.role === 'assistant' ? message.content.flatMap((block) => (block.type === 'toolCall' ? [block.id] : [])) : [],
    );
    const results = unit.messages.flatMap((message) => (message.role === 'toolResult' ? [message.toolCallId] : []));
    return calls.every((id) => results.includes(id)) && results.every((id) => calls.includes(id));
  });
}

/** A deterministic pseudo-random history with parallel tool calls and big results. */
function randomHistory(seed: number): HistoryMessage[] {
  let state = seed;
  const next = (): number => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const out: HistoryMessage[] = [];
  for (let round = 0; round < 30; round += 1) {
    out.push(user(words(10 + Math.floor(next() * 300))));
    const calls = Math.floor(next() * 4);
    if (calls > 0) {
      const ids = Array.from({ length: calls }, (_, index) => `c${seed}_${round}_${index}`);
      out.push(toolCall(ids.map((id) => ({ id, name: 'exec' }))));
      for (const id of ids) out.push(toolResult(id, words(Math.floor(next() * 2_000)), 'exec'));
    }
    out.push(assistant(words(5 + Math.floor(next() * 200))));
  }
  return out;
}

describe('units and the staged split', () => {
  it('keeps an assistant message with all its parallel tool results in one unit', () => {
    const history = [
      user('go'),
      toolCall([
        { id: 'a', name: 'read' },
        { id: 'b', name: 'exec' },
      ]),
      toolResult('a', 'A'),
      toolResult('b', 'B'),
      assistant('done'),
    ];
    const units = groupUnits(history, 'openai');
    expect(units.map((unit) => unit.messages.length)).toEqual([1, 3, 1]);
    expect(pairsIntact(units)).toBe(true);
  });

  it('keeps about the recent budget verbatim and never separates a call from its result', () => {
    for (let seed = 1; seed <= 25; seed += 1) {
      const units = groupUnits(randomHistory(seed), 'openai');
      const total = units.reduce((sum, unit) => sum + unit.tokens, 0);
      const split = splitForCompaction(units, 4_000);
      expect(split.summarise.length + split.keep.length).toBe(units.length);
      expect(split.keep.length).toBeGreaterThan(0);
      const kept = split.keep.reduce((sum, unit) => sum + unit.tokens, 0);
      // Over the budget only when the last unit alone is bigger than it.
      if (split.keep.length > 1) expect(kept).toBeLessThanOrEqual(Math.min(4_000, total / 2));
      expect(pairsIntact(split.summarise)).toBe(true);
      expect(pairsIntact(split.keep)).toBe(true);
      expect(split.keep[0]!.messages[0]!.role).not.toBe('toolResult');
    }
  });

  it('folds a previous summary into the next one instead of keeping it', () => {
    const history = conversation(3, 20);
    const summary = summaryMessage(compaction('earlier', history[0]!.id));
    const split = splitForCompaction(groupUnits([summary, ...history], 'openai'), 1_000_000);
    expect(split.summarise[0]!.messages[0]).toBe(summary);
    expect(split.keep.length).toBeGreaterThan(0);
  });

  it('splits older history into two parts of chunks that fit the ratio, in order, with pairs intact', () => {
    for (let seed = 1; seed <= 25; seed += 1) {
      const units = groupUnits(randomHistory(seed), 'openai');
      const limit = maxChunkTokens(16_000);
      const chunks = stageChunks(units, limit);
      expect(chunks.flat()).toEqual(units);
      for (const chunk of chunks) {
        const size = chunk.reduce((sum, unit) => sum + Math.ceil(unit.tokens * SAFETY_MARGIN), 0);
        if (chunk.length > 1) expect(size).toBeLessThanOrEqual(limit);
        expect(pairsIntact(chunk)).toBe(true);
      }
    }
  });

  it('uses a single chunk when the older history fits, and two parts when it does not', () => {
    const small = groupUnits(conversation(2, 10), 'openai');
    expect(stageChunks(small, 10_000)).toHaveLength(1);
    const units = groupUnits(conversation(8, 40), 'openai');
    const total = units.reduce((sum, unit) => sum + Math.ceil(unit.tokens * SAFETY_MARGIN), 0);
    // Just over one chunk: exactly the two stage parts.
    expect(stageChunks(units, Math.ceil(total * 0.6))).toHaveLength(2);
  });
});
