import { describe, expect, it } from 'vitest';
import { WIRE_ADAPTERS, wireAdapterFor, type WireAdapter } from '../../source/providers/index.js';

describe('wire adapters are a map by API', () => {
  it('finds the built-ins, prefers an adapter handed in, and names the known APIs for an unknown one', () => {
    expect(Object.keys(WIRE_ADAPTERS).sort()).toEqual(['anthropic', 'openai']);
    expect(wireAdapterFor('openai')).toBe(WIRE_ADAPTERS.openai);
    const mine: WireAdapter = async function* () {};
    expect(wireAdapterFor('mine', { mine })).toBe(mine);
    expect(() => wireAdapterFor('gemini-native')).toThrow('No wire adapter speaks the API "gemini-native". Known: openai, anthropic.');
  });
});
