import { describe, expect, it } from 'vitest';
import { estimateContextTokens, estimateMessageTokens, estimateTokens, reportedContextTokens } from '../../source/providers/index.js';

describe('token estimation', () => {
  it('counts about four characters per token for English and one per CJK character', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('a'.repeat(400))).toBe(100);
    expect(estimateTokens('a'.repeat(350), 'anthropic')).toBe(100);
    expect(estimateTokens('投资目标很明确')).toBe(7);
    expect(estimateTokens('こんにちは세계')).toBe(7);
    expect(estimateTokens(`${'x'.repeat(40)}中文`)).toBe(12);
  });

  it('counts CJK anywhere in a long prompt, and none in long text without it', () => {
    const prose = 'Practical guidance for the agent. '.repeat(4500);
    const twoByte = 'Guidance — with dashes · and dots. '.repeat(4300);
    expect(estimateTokens(prose)).toBe(Math.ceil(prose.length / 4));
    expect(estimateTokens(twoByte)).toBe(Math.ceil(twoByte.length / 4));
    expect(estimateTokens(`${prose}中`)).toBe(Math.ceil(1 + prose.length / 4));
    expect(estimateTokens(`ｱ${twoByte}한`)).toBe(Math.ceil(2 + twoByte.length / 4));
    // Just outside the blocks: counted as ordinary characters.
    expect(estimateTokens('\u303f\u3100'.repeat(2))).toBe(1);
  });

  it('estimates messages, tool calls and whole contexts', () => {
    const call = { role: 'assistant' as const, content: [{ type: 'toolCall' as const, id: '1', name: 'read', arguments: { path: 'a' } }] };
    expect(estimateMessageTokens({ role: 'user', content: 'a'.repeat(40) })).toBe(14);
    expect(estimateMessageTokens(call)).toBeGreaterThan(4);
    const total = estimateContextTokens({
      system: 's'.repeat(400),
      messages: [{ role: 'user', content: 'hi' }, call],
      tools: [{ name: 'read', description: 'Read a file', parameters: { type: 'object' } }],
    });
    expect(total).toBeGreaterThan(100);
    expect(total).toBeLessThan(150);
  });

  it('sums provider-reported usage including cache', () => {
    expect(reportedContextTokens({ input: 10, output: 5, cacheRead: 100, cacheWrite: 1 })).toBe(116);
  });
});
