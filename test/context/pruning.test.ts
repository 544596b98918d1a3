import { describe, expect, it } from 'vitest';
import { pruneToolResults, type PruningSettings } from '../../source/agent/context/pruning.js';
import type { HistoryMessage } from '../../source/agent/turn-types.js';

const settings: PruningSettings = {
  enabled: true,
  softTrimChars: 4_000,
  minWindowShare: 0.3,
  minPrunableChars: 20_000,
  keepLastAssistantTurns: 3,
  tools: { allow: [], deny: [] },
};

let next = 0;
const base = () => ({ id: `m${++next}`, parentId: null, timestamp: next, type: 'message' as const });
const user = (content: string): HistoryMessage => ({ ...base(), role: 'user', content });
const assistant = (text: string): HistoryMessage => ({ ...base(), role: 'assistant', content: [{ type: 'text', text }] }) as HistoryMessage;
const result = (toolName: string, content: string): HistoryMessage => ({
  ...base(),
  role: 'toolResult',
  toolCallId: `c${next}`,
  toolName,
  content,
  isError: false,
});

/** A tool-heavy conversation: each turn reads a big file; the last turns are small. */
function conversation(turns: number, size = 10_000): HistoryMessage[] {
  const out: HistoryMessage[] = [];
  for (let turn = 0; turn < turns; turn += 1) {
    out.push(user(`step ${turn}`), assistant(`reading ${turn}`), result(turn % 2 ? 'read' : 'exec', `${turn}:`.padEnd(size, 'x')), assistant(`done ${turn}`));
  }
  return out;
}

describe('tool-result pruning', () => {
  it('cuts long old results to head and tail, never the last 3 assistant turns, and never changes the messages it was given', () => {
    const messages = conversation(6);
    const before = JSON.stringify(messages);
    const out = pruneToolResults(messages, { settings, windowShare: 0.1, decided: new Map(), mayDecide: true, storedAt: (m) => `.tool-results/${m.id}.txt` });
    expect(JSON.stringify(messages)).toBe(before);
    const sent = out.messages.filter((m) => m.role === 'toolResult');
    // Only the last result comes after the third-last assistant message ("done 4").
    expect(sent.at(-1)?.content.length).toBe(10_000);
    for (const message of sent.slice(0, -1)) {
      expect(message.content.length).toBeLessThan(4_500);
      expect(message.content).toMatch(/characters of this (read|exec) result pruned from the context; read \.tool-results\/m\d+\.txt for the whole result/);
    }
    expect(out.pruned.map((p) => p.mode)).toEqual(['trim', 'trim', 'trim', 'trim', 'trim']);
  });

  it('clears whole old results, oldest first, only past minWindowShare and while old tool output is large', () => {
    const messages = conversation(12);
    const early = pruneToolResults(messages, { settings, windowShare: 0.2, decided: new Map(), mayDecide: true });
    expect(early.pruned.every((p) => p.mode === 'trim')).toBe(true);
    const late = pruneToolResults(messages, { settings, windowShare: 0.5, decided: new Map(), mayDecide: true });
    const modes = late.pruned.map((p) => p.mode);
    expect(modes[0]).toBe('clear');
    expect(modes.at(-1)).toBe('trim');
    expect(late.messages.find((m) => m.role === 'toolResult')?.content).toMatch(/^\[exec result of 10000 characters cleared from the context/);
    const left = late.pruned.reduce((total, p) => total + p.sentChars, 0);
    expect(left).toBeLessThan(settings.minPrunableChars + 5_000);
  });

  it('keeps earlier decisions and makes no new ones while the prompt cache is warm', () => {
    const messages = conversation(6);
    const first = pruneToolResults(messages.slice(0, 12), { settings, windowShare: 0.1, decided: new Map(), mayDecide: true });
    const warm = pruneToolResults(messages, { settings, windowShare: 0.1, decided: first.decided, mayDecide: false });
    // What was sent before is sent again the same way; the results that became old since wait.
    expect(warm.messages.slice(0, 12)).toEqual(first.messages);
    expect(warm.pruned.length).toBe(first.pruned.length);
    // Once the cache is cold, the results that became old are pruned too; the earlier ones stay exactly as they were sent.
    const cold = pruneToolResults(messages, { settings, windowShare: 0.1, decided: warm.decided, mayDecide: true });
    expect(cold.pruned.length).toBeGreaterThan(warm.pruned.length);
    const sentBefore = new Map(first.messages.map((m) => [m.id, m]));
    for (const { id } of first.pruned) expect(cold.messages.find((m) => m.id === id)).toEqual(sentBefore.get(id));
  });

  it('follows the per-tool lists, and touches nothing before the first user message', () => {
    const messages = [result('exec', 'x'.repeat(9_000)), ...conversation(6)];
    const denied = pruneToolResults(messages, {
      settings: { ...settings, tools: { allow: [], deny: ['ex*'] } },
      windowShare: 0.1,
      decided: new Map(),
      mayDecide: true,
    });
    expect(denied.pruned.every((p) => p.tool === 'read')).toBe(true);
    expect(denied.messages[0]).toBe(messages[0]);
    const allowed = pruneToolResults(messages, {
      settings: { ...settings, tools: { allow: ['exec'], deny: [] } },
      windowShare: 0.1,
      decided: new Map(),
      mayDecide: true,
    });
    expect(allowed.pruned.every((p) => p.tool === 'exec')).toBe(true);
    const off = pruneToolResults(messages, { settings: { ...settings, enabled: false }, windowShare: 0.9, decided: new Map(), mayDecide: true });
    expect(off.pruned).toEqual([]);
  });
});
