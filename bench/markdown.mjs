// Markdown rendering: a 30k-character reply (prose, a table, code in three
// languages, nested lists) rendered for the terminal at 120 cells (p50/p95 of
// 50 renders, after a warm-up that loads the highlighter), and for Telegram;
// then the same reply streamed in 400-character deltas through the TUI's
// streaming renderer, comparing the time per delta in the first and the last
// quarter (flat means the cost does not grow with the reply).
// Run after `npm run build`: node bench/markdown.mjs — prints one JSON object.
import { performance } from 'node:perf_hooks';
import { renderTelegram, renderTerminal } from '../dist/markdown/index.js';
import { streamingLines } from '../dist/tui/text/chat-lines.js';
import { graphemes, stringWidth } from '../dist/tui/text/width.js';

const measure = { width: stringWidth, graphemes };
const section = (i) =>
  [
    `## Part ${i}: what changed`,
    '',
    `The **gateway** now keeps *every* message on disk before it answers; see [the design](https://example.com/design/${i}) and \`claw status\`. 中文说明 😀.`,
    '',
    '- first point with enough words to wrap at a normal terminal width, twice over if need be',
    '  - a nested point',
    '- second point',
    '',
    '| Name | Count | Notes |',
    '|---|--:|---|',
    `| alpha | ${i} | a longer note that wraps inside its cell when the table is narrow |`,
    '| beta | 2 | short |',
    '',
    '```ts',
    `export function f${i}(x: number): number {\n  // double it\n  return x * 2;\n}`,
    '```',
    '',
    '```python',
    `def g${i}(items):\n    return [i for i in items if i % 2 == 0]`,
    '```',
    '',
    '```sh',
    `npm test -- --run test/${i}.test.ts`,
    '```',
    '',
  ].join('\n');
let reply = '';
for (let i = 0; reply.length < 30_000; i += 1) reply += section(i);

const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * p)] ?? 0;
const round = (ms) => Math.round(ms * 100) / 100;
const times = (fn, n) =>
  Array.from({ length: n }, () => {
    const start = performance.now();
    fn();
    return performance.now() - start;
  });

times(() => renderTerminal(reply, 120, measure), 20);
const terminal = times(() => renderTerminal(reply, 120, measure), 50);
const telegram = times(() => renderTelegram(reply), 50);

const deltas = [];
for (let end = 400; end <= reply.length; end += 400) {
  const text = reply.slice(0, end);
  const start = performance.now();
  streamingLines(text, 120);
  deltas.push(performance.now() - start);
}
const quarter = Math.floor(deltas.length / 4);
const mean = (values) => values.reduce((sum, v) => sum + v, 0) / Math.max(1, values.length);
const firstQuarter = mean(deltas.slice(1, quarter));
const lastQuarter = mean(deltas.slice(-quarter));

process.stdout.write(
  `${JSON.stringify({
    bench: 'markdown',
    replyChars: reply.length,
    terminalMs: { p50: round(percentile(terminal, 0.5)), p95: round(percentile(terminal, 0.95)), target: 10 },
    telegramMs: { p50: round(percentile(telegram, 0.5)), p95: round(percentile(telegram, 0.95)), parts: renderTelegram(reply).length },
    streaming: { deltas: deltas.length, firstQuarterMs: round(firstQuarter), lastQuarterMs: round(lastQuarter), ratio: round(lastQuarter / firstQuarter) },
  })}\n`,
);
