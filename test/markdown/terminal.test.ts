import { describe, expect, it } from 'vitest';
import { renderTerminal, type TermLine } from '../../source/markdown/index.js';
import { graphemes, stringWidth } from '../../source/tui/text/width.js';

const measure = { width: stringWidth, graphemes };
const text = (lines: readonly TermLine[]): string[] => lines.map((line) => line.map((span) => span.text).join(''));

const reply = [
  '# Plan',
  '',
  'Use **bold**, *italic*, ~~gone~~ and `npm test`; see [the docs](https://docs.example.com/guide/install#linux).',
  '',
  '1. first',
  '   - nested point that is long enough to wrap at a narrow width, with 中文 and 😀 in it',
  '2. second',
  '',
  '| Tool | Runs | Notes |',
  '|---|--:|---|',
  '| vitest | 1079 | the whole suite, including the architecture test |',
  '| biome | 1 | lint |',
  '',
  '```ts',
  'const answer: number = 42; // the answer',
  '```',
  '',
  '```python',
  'def f(x):',
  '    return "s" * x',
  '```',
  '',
  '```go',
  'func main() { fmt.Println("hi") }',
  '```',
].join('\n');

describe('Markdown for the terminal', () => {
  it('never draws a line wider than the width, at 80, 40 and 24 cells', () => {
    for (const width of [80, 40, 24]) {
      for (const line of text(renderTerminal(reply, width, measure))) expect(stringWidth(line), `${width}: ${line}`).toBeLessThanOrEqual(width);
    }
  });

  it('renders the markup instead of showing it, and keeps every word', () => {
    const lines = text(renderTerminal(reply, 80, measure));
    const all = lines.join('\n');
    expect(all).not.toMatch(/\*\*|~~|`|\|---/);
    for (const word of ['Plan', 'bold', 'italic', 'gone', 'npm test', 'first', 'nested', 'second', '中文', '😀', '1079', 'architecture'])
      expect(all).toContain(word);
    expect(all.replace(/\n/g, ' ')).toContain('the docs (https://docs.example.com/guide/install#linux)');
    expect(lines).toContain('1. first');
    expect(lines.some((line) => line.startsWith('   • nested point'))).toBe(true);
  });

  it('styles spans: headings, emphasis, strike, code and links', () => {
    const spans = renderTerminal(reply, 80, measure).flat();
    expect(spans.find((s) => s.text === 'Plan')).toMatchObject({ bold: true, color: 'cyan' });
    expect(spans.find((s) => s.text === 'bold')).toMatchObject({ bold: true });
    expect(spans.find((s) => s.text === 'italic')).toMatchObject({ italic: true });
    expect(spans.find((s) => s.text === 'gone')).toMatchObject({ strike: true });
    expect(spans.find((s) => s.text === 'npm test')).toMatchObject({ color: 'yellow' });
    expect(spans.find((s) => s.text === 'the docs')).toMatchObject({ underline: true });
  });

  it('frames code with its language, highlighted, keeping indentation', () => {
    const lines = renderTerminal(reply, 80, measure);
    const plain = text(lines);
    for (const lang of ['ts', 'python', 'go']) expect(plain.some((line) => line.startsWith(`╭─ ${lang} `))).toBe(true);
    expect(plain).toContain('│     return "s" * x');
    const keyword = lines.flat().find((span) => span.text === 'def');
    expect(keyword?.color).toBe('magenta');
    expect(lines.flat().find((span) => span.text.includes('// the answer'))).toMatchObject({ color: 'gray' });
  });

  it('fits a table to the width, wrapping cells; too narrow, one record per row', () => {
    const wide = text(renderTerminal(reply, 80, measure));
    expect(wide).toContain('vitest │ 1079 │ the whole suite, including the architecture test');
    const narrow = text(renderTerminal(reply, 40, measure));
    expect(narrow.filter((line) => line.includes('│') && !line.startsWith('│')).length).toBeGreaterThan(3);
    const records = text(renderTerminal(reply, 20, measure));
    expect(records).toContain('Tool: vitest');
    expect(records).toContain('Runs: 1079');
  });
});
