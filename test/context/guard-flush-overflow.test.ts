import { describe, expect, it } from 'vitest';
import {
  initialRecoveryState,
  memoryFlushDue,
  memoryFlushPrompt,
  memoryNotePath,
  nextRecoveryStep,
  overflowFailure,
  shrinkToolResults,
} from '../../source/agent/compaction/index.js';
import { guardToolResult, toolResultCap } from '../../source/agent/context/index.js';
import { estimateTokens } from '../../source/providers/index.js';
import { toolResult, user, words } from './history-builders.js';

describe('tool-result guard', () => {
  it('leaves a result within the cap alone', () => {
    expect(guardToolResult('small', 'read', 100)).toEqual({ content: 'small', truncated: false, cutChars: 0 });
  });

  it('keeps head and tail under the cap with a marker saying what was cut and how to read it', () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i} of the log`).join('\n');
    const cap = toolResultCap(16_000, 0.5);
    const guarded = guardToolResult(lines, 'exec', cap);
    expect(guarded.truncated).toBe(true);
    expect(estimateTokens(guarded.content)).toBeLessThanOrEqual(cap);
    expect(estimateTokens(guarded.content)).toBeGreaterThan(cap * 0.9);
    expect(guarded.content.startsWith('line 0 of the log')).toBe(true);
    expect(guarded.content.endsWith('line 19999 of the log')).toBe(true);
    expect(guarded.content).toContain(`[… ${guarded.cutChars} of ${lines.length} characters of this exec result were cut`);
    expect(guarded.content).toMatch(/writing its output to a file/);
    expect(guarded.content.length + guarded.cutChars).toBeLessThan(lines.length + 400);
  });

  it('names the way to read the rest per tool', () => {
    expect(guardToolResult(words(5_000), 'read', 500).content).toContain('call read again with from/to line numbers');
    expect(guardToolResult(words(5_000), 'mcp__x__y', 500).content).toContain('call the tool again with a narrower request');
  });
});

describe('memory flush decision', () => {
  const thresholds = { flush: 1_000 };
  it('is due past the flush mark once per compaction cycle', () => {
    expect(memoryFlushDue({ enabled: true, used: 999, thresholds, compactionCount: 0, memoryFlushCompactionCount: undefined })).toBe(false);
    expect(memoryFlushDue({ enabled: true, used: 1_000, thresholds, compactionCount: 0, memoryFlushCompactionCount: undefined })).toBe(true);
    expect(memoryFlushDue({ enabled: true, used: 5_000, thresholds, compactionCount: 0, memoryFlushCompactionCount: 0 })).toBe(false);
    expect(memoryFlushDue({ enabled: true, used: 5_000, thresholds, compactionCount: 1, memoryFlushCompactionCount: 0 })).toBe(true);
    expect(memoryFlushDue({ enabled: false, used: 5_000, thresholds, compactionCount: 1, memoryFlushCompactionCount: 0 })).toBe(false);
  });

  it('writes to the local date of the injected clock', () => {
    const at = Date.UTC(2026, 0, 31, 23, 30);
    expect(memoryNotePath(at, 'UTC')).toBe('memory/2026-01-31.md');
    expect(memoryNotePath(at, 'Asia/Tokyo')).toBe('memory/2026-02-01.md');
    expect(memoryFlushPrompt(at, 'UTC')).toContain('memory/2026-01-31.md');
    expect(memoryFlushPrompt(at, 'UTC')).toContain('NO_REPLY');
  });
});

describe('overflow recovery plan', () => {
  it('compacts once, shrinks tool results twice, then gives up: never a loop', () => {
    const state = initialRecoveryState();
    const steps: string[] = [];
    for (let guard = 0; guard < 20; guard += 1) {
      const step = nextRecoveryStep(state, true);
      steps.push(step.kind === 'shrink' ? `shrink ${step.share}` : step.kind);
      if (step.kind === 'give_up') break;
      if (step.kind === 'compact') state.compacted = true;
      else state.shrinks += 1;
    }
    expect(steps).toEqual(['compact', 'shrink 0.25', 'shrink 0.1', 'give_up']);
  });

  it('skips compaction when there is nothing to fold', () => {
    expect(nextRecoveryStep(initialRecoveryState(), false)).toEqual({ kind: 'shrink', share: 0.25 });
  });

  it('shrinks only the view of oversized tool results', () => {
    const big = toolResult('c', words(20_000));
    const small = toolResult('d', 'ok');
    const history = [user('q'), big, small];
    const { messages, shrunk } = shrinkToolResults(history, 10_000, 0.1, 'openai');
    expect(shrunk).toBe(1);
    expect(estimateTokens(messages[1]!.content as string)).toBeLessThanOrEqual(1_000);
    expect(messages[2]).toBe(small);
    expect(big.content).toBe(words(20_000));
  });

  it('ends with an error that says what to do', () => {
    expect(overflowFailure('fake/m', 8_192, { recoveries: 2 })).toEqual({
      message: 'The conversation no longer fits in the context window of fake/m (8192 tokens), even after 2 attempts to compact it and cut tool results.',
      hint: expect.stringContaining('/new'),
    });
  });

  it('reports the window the provider states, and claims no compaction that did not happen', () => {
    const failure = overflowFailure('fake/m', 128_000, { stated: 16_385, recoveries: 0 });
    expect(failure.message).toBe(
      "The conversation no longer fits in the context window of fake/m (16385 tokens as the provider reports it; claw's config says 128000), and there was nothing older to compact or cut.",
    );
    expect(failure.hint).toContain('contextWindow to 16385');
  });
});
