import { describe, expect, it } from 'vitest';
import { wireSafeKeys, withoutFormats } from '../../source/tools/schema-keys.js';

describe('property keys the model APIs accept, mapped back for the tool', () => {
  it('renames keys in objects, arrays of objects and unions, keeps required in step, and avoids collisions', () => {
    const { parameters, restore } = wireSafeKeys({
      type: 'object',
      properties: {
        'a b': { type: 'string' },
        a_b: { type: 'string' },
        rows: { type: 'array', items: { type: 'object', properties: { 'cell value': { type: 'number' } } } },
        pick: { anyOf: [{ type: 'object', properties: { 'left side': { type: 'string' } } }, { type: 'string' }] },
      },
      required: ['a b', 'rows'],
    });
    expect(Object.keys(parameters.properties as object)).toEqual(['a_b_2', 'a_b', 'rows', 'pick']);
    expect(parameters.required).toEqual(['a_b_2', 'rows']);
    expect(restore({ a_b_2: 'x', a_b: 'y', rows: [{ cell_value: 1 }, { cell_value: 2 }], pick: { left_side: 'l' } })).toEqual({
      'a b': 'x',
      a_b: 'y',
      rows: [{ 'cell value': 1 }, { 'cell value': 2 }],
      pick: { 'left side': 'l' },
    });
  });

  it('leaves a schema with safe keys as it is, and the arguments untouched', () => {
    const schema = { type: 'object' as const, properties: { path: { type: 'string' } } };
    const { parameters, restore } = wireSafeKeys(schema);
    expect(parameters).toBe(schema);
    const args = { path: 'x' };
    expect(restore(args)).toBe(args);
  });

  it('drops format keywords for validation, but not a field called "format"', () => {
    expect(withoutFormats({ type: 'object', properties: { format: { type: 'string', format: 'uri-reference' } } })).toEqual({
      type: 'object',
      properties: { format: { type: 'string' } },
    });
  });
});
