import { describe, expect, it } from 'vitest';
import { markdownToTelegramHtml, splitTelegramHtml, TELEGRAM_TEXT_LIMIT } from '../../source/channels/index.js';

/** Every tag opened in a message is closed in it, in order. */
function balanced(html: string): boolean {
  const stack: string[] = [];
  for (const match of html.matchAll(/<(\/?)([a-z]+)[^>]*>/g)) {
    if (match[1]) {
      if (stack.pop() !== match[2]) return false;
    } else stack.push(match[2]!);
  }
  return stack.length === 0;
}

describe('Markdown → Telegram HTML', () => {
  it('converts bold, italic, code, pre and links and escapes everything else', () => {
    expect(markdownToTelegramHtml('**bold** and *it* and `a<b` and [site](https://x.test/?a=1&b=2)')).toBe(
      '<b>bold</b> and <i>it</i> and <code>a&lt;b</code> and <a href="https://x.test/?a=1&amp;b=2">site</a>',
    );
    expect(markdownToTelegramHtml('1 < 2 && 3 > 2')).toBe('1 &lt; 2 &amp;&amp; 3 &gt; 2');
    expect(markdownToTelegramHtml('```ts\nif (a < b) {}\n```')).toBe('<pre><code class="language-ts">if (a &lt; b) {}</code></pre>');
  });

  it('leaves unbalanced markers as the characters they are', () => {
    expect(markdownToTelegramHtml('2 * 3 = 6 and **not closed')).toBe('2 * 3 = 6 and **not closed');
    expect(markdownToTelegramHtml('snake_case_name stays')).toBe('snake_case_name stays');
    expect(markdownToTelegramHtml('a `tick without end')).toBe('a `tick without end');
    expect(markdownToTelegramHtml('[label](javascript:alert(1))')).toBe('[label](javascript:alert(1))');
    const html = markdownToTelegramHtml('*a **b* c** <script>');
    expect(balanced(html)).toBe(true);
    expect(html).toContain('&lt;script&gt;');
  });

  it('treats a fence still open (a streaming reply) as code to the end', () => {
    expect(markdownToTelegramHtml('look:\n```\nx < 1')).toBe('look:\n\n<pre>x &lt; 1</pre>');
  });
});

describe('splitting at 4096', () => {
  it('keeps short replies whole', () => {
    expect(splitTelegramHtml('one\n\ntwo')).toEqual(['one\n\ntwo']);
  });

  it('splits between paragraphs, and a long code block into balanced pre blocks', () => {
    const paragraphs = Array.from({ length: 30 }, (_, i) => `Paragraph ${i} ${'word '.repeat(40)}`).join('\n\n');
    const code = Array.from({ length: 400 }, (_, i) => `line ${i} <tag> & more`).join('\n');
    const parts = splitTelegramHtml(`${paragraphs}\n\n\`\`\`\n${code}\n\`\`\`\n\nThe end.`);
    expect(parts.length).toBeGreaterThan(2);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(TELEGRAM_TEXT_LIMIT);
      expect(balanced(part)).toBe(true);
    }
    // Nothing lost, nothing cut inside a line of code.
    const codeParts = parts.join('\n').match(/<pre>[\s\S]*?<\/pre>/g) ?? [];
    const lines = codeParts.flatMap((block) => block.replace(/<\/?pre>/g, '').split('\n'));
    expect(lines).toEqual(code.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').split('\n'));
    expect(parts.at(-1)).toContain('The end.');
    expect(parts.join('\n\n')).toContain('Paragraph 29');
  });

  it('cuts a single overlong word where it must', () => {
    const parts = splitTelegramHtml('x'.repeat(10_000));
    expect(parts.map((p) => p.length)).toEqual([4096, 4096, 1808]);
  });
});
