import { describe, expect, it } from 'vitest';
import { chunkMarkdown, estimateTokens } from '../../source/memory/index.js';

const options = { tokens: 400, overlap: 80 };

function expectExactLines(content: string, chunks: ReturnType<typeof chunkMarkdown>): void {
  const lines = content.split('\n');
  for (const chunk of chunks) {
    expect(chunk.startLine).toBeGreaterThanOrEqual(1);
    expect(chunk.endLine).toBeGreaterThanOrEqual(chunk.startLine);
    if (!chunk.text.includes('\n') && chunk.startLine === chunk.endLine && chunk.text !== lines[chunk.startLine - 1]) {
      expect(lines[chunk.startLine - 1]).toContain(chunk.text);
    } else {
      expect(chunk.text).toBe(lines.slice(chunk.startLine - 1, chunk.endLine).join('\n'));
    }
  }
}

describe('chunkMarkdown', () => {
  it('gives every chunk its exact 1-based line range', () => {
    const content = ['# Title', '', 'First paragraph line one.', 'line two.', '', '## Section', '', '- item a', '- item b', ''].join('\n');
    const chunks = chunkMarkdown(content, options);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatchObject({ startLine: 1, endLine: 9 });
    expectExactLines(content, chunks);
  });

  it('splits long documents near the token target, with overlap, covering every line', () => {
    const lines: string[] = [];
    for (let s = 0; s < 12; s++) {
      lines.push(`## Section ${s}`, '');
      for (let p = 0; p < 8; p++) lines.push(`Paragraph ${s}.${p} talks about subject ${s * 10 + p} with enough words to fill a line nicely.`, '');
    }
    const content = lines.join('\n');
    const chunks = chunkMarkdown(content, options);
    expect(chunks.length).toBeGreaterThan(3);
    expectExactLines(content, chunks);
    for (const chunk of chunks) expect(estimateTokens(chunk.text)).toBeLessThanOrEqual(options.tokens + 20);
    const covered = new Set<number>();
    for (const chunk of chunks) for (let l = chunk.startLine; l <= chunk.endLine; l++) covered.add(l);
    lines.forEach((line, i) => {
      if (line.trim() !== '') expect(covered.has(i + 1)).toBe(true);
    });
  });

  it('repeats trailing lines when a section is split by size', () => {
    const content = Array.from({ length: 200 }, (_, i) => `Line ${i} of one long section without headings, just prose going on.`).join('\n');
    const chunks = chunkMarkdown(content, options);
    expect(chunks.length).toBeGreaterThan(2);
    for (let i = 1; i < chunks.length; i++) {
      expect(chunks[i]!.startLine).toBeLessThanOrEqual(chunks[i - 1]!.endLine);
      expect(chunks[i]!.startLine).toBeGreaterThan(chunks[i - 1]!.startLine);
    }
    expectExactLines(content, chunks);
  });

  it('starts a new chunk at a heading and keeps a code fence whole', () => {
    const prose = Array.from({ length: 30 }, (_, i) => `Prose line ${i} with several words in it to count.`);
    const code = ['```ts', 'const a = 1;', '', 'const b = 2;', '```'];
    const content = ['# Intro', ...prose, '', '# Code', ...code, '', 'After.'].join('\n');
    const chunks = chunkMarkdown(content, options);
    const codeChunk = chunks.find((c) => c.text.includes('const a'))!;
    expect(codeChunk.text).toContain('const b = 2;');
    expect(codeChunk.text.startsWith('# Code')).toBe(true);
    expect(codeChunk.startLine).toBe(prose.length + 3);
    expectExactLines(content, chunks);
  });

  it('splits a single huge line by characters, keeping its line number', () => {
    const huge = '投资目标'.repeat(400);
    const content = ['# Notes', huge, 'tail'].join('\n');
    const chunks = chunkMarkdown(content, options);
    const parts = chunks.filter((c) => c.startLine === 2 && c.endLine === 2);
    expect(parts.length).toBeGreaterThan(2);
    expect(parts.map((p) => p.text).join('')).toBe(huge);
  });

  it('returns no chunks for an empty file', () => {
    expect(chunkMarkdown('\n\n   \n', options)).toEqual([]);
  });
});
