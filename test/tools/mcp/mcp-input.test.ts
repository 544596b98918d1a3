import { describe, expect, it } from 'vitest';
import { elicitationFields, parseElicitationValue, resourceMentions } from '../../../source/protocol/index.js';

describe('MCP input helpers for the TUI', () => {
  it('turns an elicitation schema into form fields and typed text into values', () => {
    const fields = elicitationFields({
      type: 'object',
      properties: {
        name: { type: 'string', title: 'Name', description: 'Your name' },
        age: { type: 'integer', minimum: 0 },
        subscribe: { type: 'boolean', default: false },
        colour: { type: 'string', enum: ['r', 'g'], enumNames: ['Red', 'Green'] },
      },
      required: ['name', 'age'],
    });
    expect(fields).toEqual([
      { name: 'name', title: 'Name', description: 'Your name', kind: 'string', required: true },
      { name: 'age', title: 'age', kind: 'integer', required: true },
      { name: 'subscribe', title: 'subscribe', kind: 'boolean', required: false, default: false },
      {
        name: 'colour',
        title: 'colour',
        kind: 'enum',
        required: false,
        options: [
          { value: 'r', label: 'Red' },
          { value: 'g', label: 'Green' },
        ],
      },
    ]);
    const [name, age, subscribe, colour] = fields as [(typeof fields)[0], (typeof fields)[0], (typeof fields)[0], (typeof fields)[0]];
    expect(parseElicitationValue(name, '  Ada ')).toEqual({ value: 'Ada' });
    expect(parseElicitationValue(name, '')).toEqual({ error: 'Name is required.' });
    expect(parseElicitationValue(age, '36')).toEqual({ value: 36 });
    expect(parseElicitationValue(age, '3.5')).toEqual({ error: 'age needs a whole number, not "3.5".' });
    expect(parseElicitationValue(subscribe, 'yes')).toEqual({ value: true });
    expect(parseElicitationValue(subscribe, '')).toEqual({ value: false });
    expect(parseElicitationValue(subscribe, 'maybe')).toEqual({ error: 'subscribe needs yes or no, not "maybe".' });
    expect(parseElicitationValue(colour, '2')).toEqual({ value: 'g' });
    expect(parseElicitationValue(colour, 'red')).toEqual({ value: 'r' });
    expect(parseElicitationValue(colour, 'blue')).toEqual({ error: 'colour must be one of 1) Red, 2) Green.' });
    expect(parseElicitationValue(colour, '')).toEqual({ empty: true });
  });

  it('finds @server:uri mentions with a scheme, without trailing punctuation', () => {
    const text = 'compare @docs:file:///notes/a.md and @everything:demo://resource/static/document/x.md. @bob: hi, mail a@b:c';
    expect(resourceMentions(text)).toEqual([
      { server: 'docs', uri: 'file:///notes/a.md', start: 8, end: 32 },
      { server: 'everything', uri: 'demo://resource/static/document/x.md', start: 37, end: 85 },
    ]);
    expect(text.slice(8, 32)).toBe('@docs:file:///notes/a.md');
    expect(text.slice(37, 85)).toBe('@everything:demo://resource/static/document/x.md');
  });
});
