import { describe, expect, it } from 'vitest';
import { planThinking } from '../../source/providers/anthropic-messages.js';

describe('Anthropic thinking budget', () => {
  it('sends no thinking when off', () => {
    expect(planThinking('off', 4096, 64_000)).toEqual({ maxTokens: 4096, budget: undefined });
  });

  it('raises max_tokens above the budget for each level', () => {
    expect(planThinking('minimal', 1000, 64_000)).toEqual({ maxTokens: 1024 + 4096, budget: 1024 });
    expect(planThinking('medium', 50_000, 64_000)).toEqual({ maxTokens: 50_000, budget: 10_000 });
    expect(planThinking('high', 8192, 64_000)).toEqual({ maxTokens: 32_000 + 4096, budget: 32_000 });
  });

  it('shrinks the budget to fit the model, and drops thinking when even the minimum does not fit', () => {
    expect(planThinking('high', 8192, 20_000)).toEqual({ maxTokens: 20_000, budget: 20_000 - 1024 });
    expect(planThinking('low', 1500, 1500)).toEqual({ maxTokens: 1500, budget: undefined });
  });
});
