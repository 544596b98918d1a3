import { createHash } from 'node:crypto';
import { countCjk } from './cjk.js';
import type { Chunk } from './types.js';

export interface ChunkOptions {
  tokens: number;
  overlap: number;
}

interface Block {
  start: number;
  end: number;
  tokens: number;
  heading: boolean;
}

/** Rough token count: ~4 characters per token for Latin text, one per CJK character. */
export function estimateTokens(text: string): number {
  const cjk = countCjk(text);
  return Math.ceil((text.length - cjk) / 4) + cjk;
}

export function hashText(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

const fence = /^\s{0,3}(```|~~~)/;
const headingLine = /^\s{0,3}#{1,6}\s/;

/** Splits lines into blocks that should stay together: headings, fenced code, paragraphs and lists. */
function toBlocks(lines: string[]): Block[] {
  const blocks: Block[] = [];
  let current: Block | undefined;
  let inFence: string | undefined;
  const flush = () => {
    if (current) blocks.push(current);
    current = undefined;
  };
  lines.forEach((line, i) => {
    const tokens = estimateTokens(line) + 1;
    const fenceMatch = fence.exec(line);
    if (inFence) {
      current!.end = i;
      current!.tokens += tokens;
      if (fenceMatch && fenceMatch[1] === inFence) {
        inFence = undefined;
        flush();
      }
      return;
    }
    if (fenceMatch) {
      flush();
      inFence = fenceMatch[1];
      current = { start: i, end: i, tokens, heading: false };
      return;
    }
    if (line.trim() === '') {
      flush();
      return;
    }
    if (headingLine.test(line)) {
      flush();
      blocks.push({ start: i, end: i, tokens, heading: true });
      return;
    }
    if (!current) current = { start: i, end: i, tokens, heading: false };
    else {
      current.end = i;
      current.tokens += tokens;
    }
  });
  flush();
  return blocks;
}

/**
 * Markdown-aware chunking with exact 1-based line ranges. Sections start a new
 * chunk at headings once the current one has some substance; oversized chunks
 * are split by lines (a single huge line by characters) and repeat up to
 * `overlap` tokens of trailing lines so a fact on the border is in both.
 */
export function chunkMarkdown(content: string, options: ChunkOptions): Chunk[] {
  const lines = content.split(/\r?\n/);
  const lineTokens = lines.map((line) => estimateTokens(line) + 1);
  const chunks: Chunk[] = [];
  let start = -1;
  let end = -1;
  let tokens = 0;

  const emit = () => {
    if (start < 0) return;
    const text = lines.slice(start, end + 1).join('\n');
    if (text.trim() !== '') chunks.push({ startLine: start + 1, endLine: end + 1, text, hash: hashText(text) });
  };
  const overlapStart = (): number => {
    let from = end + 1;
    let carried = 0;
    while (from - 1 > start && carried + lineTokens[from - 1]! <= options.overlap) carried += lineTokens[--from]!;
    return from;
  };
  const addLine = (i: number) => {
    if (start >= 0 && tokens + lineTokens[i]! > options.tokens) {
      emit();
      const from = overlapStart();
      start = from <= end ? from : -1;
      tokens = start < 0 ? 0 : lineTokens.slice(start, end + 1).reduce((a, b) => a + b, 0);
    }
    if (start < 0) start = i;
    end = i;
    tokens += lineTokens[i]!;
  };

  for (const block of toBlocks(lines)) {
    if (block.heading && start >= 0 && tokens >= options.tokens / 4) {
      emit();
      start = -1;
      tokens = 0;
    }
    if (start >= 0 && !block.heading && tokens + block.tokens > options.tokens && block.tokens <= options.tokens) {
      emit();
      const from = overlapStart();
      start = from <= end ? from : -1;
      tokens = start < 0 ? 0 : lineTokens.slice(start, end + 1).reduce((a, b) => a + b, 0);
    }
    for (let i = block.start; i <= block.end; i++) {
      if (lineTokens[i]! > options.tokens) {
        emit();
        start = -1;
        tokens = 0;
        chunks.push(...splitLongLine(lines[i]!, i + 1, options.tokens));
        continue;
      }
      addLine(i);
    }
  }
  emit();
  return chunks;
}

function splitLongLine(line: string, lineNo: number, maxTokens: number): Chunk[] {
  const out: Chunk[] = [];
  const chars = Array.from(line);
  const per = Math.max(1, Math.floor((chars.length * maxTokens) / Math.max(1, estimateTokens(line))));
  for (let i = 0; i < chars.length; i += per) {
    const text = chars.slice(i, i + per).join('');
    if (text.trim() !== '') out.push({ startLine: lineNo, endLine: lineNo, text, hash: hashText(text) });
  }
  return out;
}
