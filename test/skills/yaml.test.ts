import { describe, expect, it } from 'vitest';
import { parseYaml, YamlError } from '../../source/skills/index.js';

describe('frontmatter YAML', () => {
  it('reads block maps and lists, flow (JSON) collections, quoted, plain and block scalars with the core schema', () => {
    const text = [
      'name: pdf-tools',
      'description: "Extract text: tables too. \\u00e9"',
      "quote: 'it''s here'",
      'allowed-tools: Read Bash',
      'metadata:',
      '  claw:',
      '    requires:',
      '      bins: [pdftotext, "qpdf"]',
      '      env:',
      '        - PDF_KEY',
      '    always: true',
      '  openclaw: {"emoji": "📄", "requires": {"anyBins": ["a", "b"]}, "n": 3}',
      'list:',
      '- plain',
      '- key: 1',
      '  other: 2.5',
      'folded: >',
      '  one',
      '  two',
      '',
      '  three',
      'literal: |-',
      '  line 1',
      '    indented',
      'continued: a plain value',
      '  over two lines # and a comment',
      'empty:',
      'nothing: ~',
      'off: false',
    ].join('\n');
    expect(parseYaml(text)).toEqual({
      name: 'pdf-tools',
      description: 'Extract text: tables too. é',
      quote: "it's here",
      'allowed-tools': 'Read Bash',
      metadata: { claw: { requires: { bins: ['pdftotext', 'qpdf'], env: ['PDF_KEY'] }, always: true }, openclaw: { emoji: '📄', requires: { anyBins: ['a', 'b'] }, n: 3 } },
      list: ['plain', { key: 1, other: 2.5 }],
      folded: 'one two\nthree\n',
      literal: 'line 1\n  indented',
      continued: 'a plain value over two lines',
      empty: null,
      nothing: null,
      off: false,
    });
  });

  it.each([
    ['an unquoted ": " inside a value', 'name: x\ndescription: Use when: the user asks', /line 2: .*contains ": ".*quotes/],
    ['a duplicate key', 'name: a\nname: b', /line 2: the key "name" appears twice/],
    ['an alias', 'name: *other', /line 1: anchors, aliases and tags/],
    ['a tab for indentation', 'metadata:\n\tclaw: 1', /line 2: a tab/],
    ['an unclosed flow list', 'bins: [a, b', /line 1: .*not closed/],
    ['an unclosed quote', 'description: "open', /line 1: .*not closed/],
    ['bad indentation', 'metadata:\n    a: 1\n  b: 2', /line 3: .*indented/],
    ['a bad escape', 'description: "a\\qb"', /line 1: .*not a YAML escape/],
  ])('refuses %s with the line number', (_label, text, message) => {
    expect(() => parseYaml(text)).toThrow(YamlError);
    expect(() => parseYaml(text)).toThrow(message);
  });

  it('keeps __proto__ as data', () => {
    const parsed = parseYaml('__proto__: {polluted: true}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(parsed)).toEqual(['__proto__']);
  });
});
