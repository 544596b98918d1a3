import { describe, expect, it } from 'vitest';
import { normalizeToolSchema } from '../../source/providers/index.js';

describe('tool schema normalisation', () => {
  it('forces a top-level object with properties and drops meta keywords everywhere', () => {
    expect(normalizeToolSchema({ $schema: 'http://json-schema.org/draft-07/schema#', $id: 'x', description: 'no args' })).toEqual({
      description: 'no args',
      type: 'object',
      properties: {},
    });
    expect(
      normalizeToolSchema({
        type: 'object',
        properties: { nested: { $comment: 'why', type: 'object', properties: { $id: { type: 'string' } } } },
        required: [],
      }),
    ).toEqual({ type: 'object', properties: { nested: { type: 'object', properties: { $id: { type: 'string' } } } } });
  });

  it('merges a top-level union of object variants (properties united, required intersected)', () => {
    const schema = {
      anyOf: [
        { type: 'object', properties: { action: { const: 'list' }, path: { type: 'string' } }, required: ['action', 'path'] },
        { type: 'object', properties: { action: { const: 'kill' }, pid: { type: 'number' } }, required: ['action', 'pid'] },
      ],
    };
    expect(normalizeToolSchema(schema)).toEqual({
      type: 'object',
      properties: { action: { const: 'kill' }, path: { type: 'string' }, pid: { type: 'number' } },
      required: ['action'],
    });
  });

  it('merges allOf by uniting required, and keeps nested combinators intact', () => {
    const schema = {
      allOf: [
        { properties: { a: { type: 'string' } }, required: ['a'] },
        { properties: { b: { anyOf: [{ type: 'string' }, { type: 'number' }] } }, required: ['b'] },
      ],
    };
    expect(normalizeToolSchema(schema)).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { anyOf: [{ type: 'string' }, { type: 'number' }] } },
      required: ['a', 'b'],
    });
  });
});
