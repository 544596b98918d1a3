import { describe, expect, it } from 'vitest';
import { renderTelegram, renderTelegramPreview, TELEGRAM_TEXT_LIMIT } from '../../source/markdown/index.js';
import { telegramTextRefusal, telegramVisibleText } from '../support/strict-telegram.js';

/** Every part as the Bot API would take it: nothing refused. */
function accepted(parts: readonly string[]): void {
  expect(parts.length).toBeGreaterThan(0);
  for (const text of parts) expect(telegramTextRefusal({ text, parse_mode: 'HTML' }), text.slice(0, 200)).toBeUndefined();
}
const visible = (parts: readonly string[]): string => parts.map((text) => telegramVisibleText({ text, parse_mode: 'HTML' })).join('');
const one = (markdown: string): string => {
  const parts = renderTelegram(markdown);
  accepted(parts);
  expect(parts).toHaveLength(1);
  return parts[0]!;
};

describe('Markdown → Telegram HTML, parsed once', () => {
  it('converts bold, italic, code, pre and links and escapes everything else', () => {
    expect(one('**bold** and *it* and `a<b` and [site](https://x.test/?a=1&b=2)')).toBe(
      '<b>bold</b> and <i>it</i> and <code>a&lt;b</code> and <a href="https://x.test/?a=1&amp;b=2">site</a>',
    );
    expect(one('1 < 2 && 3 > 2')).toBe('1 &lt; 2 &amp;&amp; 3 &gt; 2');
    expect(one('```ts\nif (a < b) {}\n```')).toBe('<pre><code class="language-ts">if (a &lt; b) {}</code></pre>');
  });

  it('leaves unbalanced markers and unsafe links as the characters they are', () => {
    expect(one('2 * 3 = 6 and **not closed')).toBe('2 * 3 = 6 and **not closed');
    expect(one('snake_case_name stays')).toBe('snake_case_name stays');
    expect(one('a `tick without end')).toBe('a `tick without end');
    expect(one('[label](javascript:alert(1))')).toBe('[label](javascript:alert(1))');
    expect(one('*a **b* c** <script>')).toContain('&lt;script&gt;');
  });

  it('treats a fence still open (a streaming reply) as code to the end', () => {
    expect(one('look:\n```\nx < 1')).toBe('look:\n\n<pre>x &lt; 1</pre>');
  });

  it('keeps fences with any info string as code (c#, f#, a title, line marks)', () => {
    for (const info of ['c#', 'f#', 'python title="app.py"', 'js {1,3}']) {
      const html = one(`\`\`\`${info}\n# region\n_even_ __name__\n\`\`\`\nafter the fence`);
      expect(html).toContain('# region\n_even_ __name__</code></pre>');
      expect(html.endsWith('\n\nafter the fence')).toBe(true);
    }
  });

  it('makes indented code and fences inside list items and quotes code', () => {
    expect(one('    indented *not em*')).toBe('<pre>indented *not em*</pre>');
    expect(one('- item\n\n  ```py\n  x = 1\n  ```')).toContain('<pre><code class="language-py">x = 1</code></pre>');
    expect(one('> quoted\n> ```sh\n> ls *\n> ```')).toContain('<pre><code class="language-sh">ls *</code></pre>');
  });

  it('honours backslash escapes and decodes entity references', () => {
    expect(one('\\*literal\\* &lt;tag&gt; &copy; &#x1F600;')).toBe('*literal* &lt;tag&gt; © 😀');
  });

  it('never crosses tags, whatever the emphasis overlaps', () => {
    expect(one('_under **mixed_ case**')).toBe('_under <b>mixed_ case</b>');
    expect(one('***both*** and **b _i** x_')).toBe('<i><b>both</b></i> and <b>b _i</b> x_');
  });

  it('keeps link targets with parentheses, titles, reference links, bracketed labels and images', () => {
    expect(one('[Rust](https://en.wikipedia.org/wiki/Rust_(programming_language))')).toBe(
      '<a href="https://en.wikipedia.org/wiki/Rust_(programming_language)">Rust</a>',
    );
    expect(one('[docs](https://d.test "The docs") and [ref][r] and [a [b] c](https://e.test)\n\n[r]: https://r.test')).toBe(
      '<a href="https://d.test">docs</a> and <a href="https://r.test">ref</a> and <a href="https://e.test">a [b] c</a>',
    );
    expect(one('![a chart](https://img.test/c.png)')).toBe('<a href="https://img.test/c.png">a chart</a>');
  });

  it('sends a reply that is only an empty fence as typed instead of an empty message', () => {
    expect(one('```\n```')).toBe('```\n```');
    expect(renderTelegram('   \n')).toEqual([]);
  });

  it('renders lists, task items, tables, rules and spoilers', () => {
    expect(one('- a\n  - nested\n- [x] done\n- [ ] open')).toBe('• a\n   • nested\n☑ done\n☐ open');
    expect(one('1. one\n2. two')).toBe('1. one\n2. two');
    expect(one('| a | b |\n|---|--:|\n| 1 | **2** |')).toBe('<pre>a │ b\n──┼──\n1 │ 2</pre>');
    expect(one('||secret|| but a || b || c')).toBe('<tg-spoiler>secret</tg-spoiler> but a || b || c');
  });
});

describe('splitting at 4096', () => {
  it('keeps short replies whole', () => {
    expect(renderTelegram('one\n\ntwo')).toEqual(['one\n\ntwo']);
  });

  it('never cuts inside a surrogate pair: a paragraph without spaces with an emoji at the cut', () => {
    const source = `${'字'.repeat(4095)}😀${'字'.repeat(10)}`;
    const parts = renderTelegram(source);
    accepted(parts);
    expect(visible(parts)).toBe(source);
  });

  it('splits between paragraphs, and a long code block into parts that reopen its language', () => {
    const paragraphs = Array.from({ length: 30 }, (_, i) => `Paragraph ${i} ${'word '.repeat(40)}`).join('\n\n');
    const code = Array.from({ length: 400 }, (_, i) => `line ${i} <tag> & more`).join('\n');
    const parts = renderTelegram(`${paragraphs}\n\n\`\`\`xml\n${code}\n\`\`\`\n\nThe end.`);
    accepted(parts);
    expect(parts.length).toBeGreaterThan(2);
    const codeParts = parts.flatMap((part) => part.match(/<pre><code class="language-xml">[\s\S]*?<\/code><\/pre>/g) ?? []);
    expect(codeParts.length).toBeGreaterThan(1);
    const lines = codeParts.flatMap((block) =>
      telegramVisibleText({ text: block, parse_mode: 'HTML' })
        .split('\n')
        .filter((l) => l !== ''),
    );
    expect(lines).toEqual(code.split('\n'));
    expect(parts.at(-1)).toContain('The end.');
  });

  it('cuts a single overlong word where it must, losing nothing', () => {
    const parts = renderTelegram('x'.repeat(10_000));
    expect(parts.map((p) => p.length)).toEqual([4096, 4096, 1808]);
  });

  it('counts the limit after entity parsing: escaped HTML code fills 4096 visible characters, not 4096 bytes of markup', () => {
    const code = Array.from({ length: 300 }, (_, i) => `<div class="row-${i}">&amp;</div>`).join('\n');
    const parts = renderTelegram(`\`\`\`html\n${code}\n\`\`\``);
    accepted(parts);
    for (const text of parts) expect(telegramVisibleText({ text, parse_mode: 'HTML' }).length).toBeLessThanOrEqual(TELEGRAM_TEXT_LIMIT);
    expect(visible(parts).replace(/\n/g, '')).toBe(code.replace(/\n/g, ''));
  });

  it('a preview is one message, cut with an ellipsis while more is coming', () => {
    const preview = renderTelegramPreview(`${'word '.repeat(2000)}`)!;
    expect(telegramTextRefusal({ text: preview, parse_mode: 'HTML' })).toBeUndefined();
    expect(preview.endsWith('…')).toBe(true);
    expect(renderTelegramPreview('short')).toBe('short');
  });
});
