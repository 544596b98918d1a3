import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cleanUrl, htmlToMarkdown } from '../../../source/tools/web/html-to-markdown.js';

const page = (name: string): string => readFileSync(new URL(`./pages/${name}`, import.meta.url), 'utf8');
const url = 'https://news.example.com/2026/11/30/harbour-bridge';

describe('web_fetch returns the article, not the page', () => {
  it('a news article with a mega-menu, sidebar, cookie and newsletter boxes: every paragraph, none of the chrome', () => {
    const html = page('news.html');
    const article = htmlToMarkdown(html, { url });
    expect(article.extracted).toBe('article');
    for (let i = 0; i < 12; i += 1) expect(article.markdown).toContain(`Marker-${i}.`);
    for (const chrome of ['Subsection 3.4', 'Trending', 'Footer link', 'newsletter', 'Accept all cookies']) expect(article.markdown).not.toContain(chrome);
    expect(article.markdown.startsWith('# Harbour bridge to be rebuilt\n')).toBe(true);
    expect(article.markdown).toMatch(/Lois Lane/);
    // The whole page, for comparison: the article is a fraction of it.
    const whole = htmlToMarkdown(html, { url, mode: 'page' });
    expect(whole.extracted).toBe('page');
    expect(whole.markdown).toContain('Subsection 3.4');
    expect(article.markdown.length).toBeLessThan(whole.markdown.length / 2);
  });

  it('links are absolute, lose their tracking parameters, and long ones move to a numbered list; lazy images keep alt and URL', () => {
    const article = htmlToMarkdown(page('news.html'), { url });
    expect(article.markdown).toContain('![The harbour bridge at dusk](https://news.example.com/img/bridge.jpg)');
    expect(article.markdown).toMatch(/\[full engineering report\]\[1\]/);
    expect(article.markdown).toContain('[1]: https://example.org/reports/2026/harbour-bridge-engineering-assessment-final-version-with-appendices.pdf?id=7');
    expect(article.markdown).not.toMatch(/utm_|fbclid/);
    expect(cleanUrl('/a?utm_source=x&b=2&gclid=9', url)).toBe('https://news.example.com/a?b=2');
    expect(cleanUrl('javascript:alert(1)', url)).toBeUndefined();
  });

  it('comments under a post are not the post', () => {
    const article = htmlToMarkdown(page('blog-comments.html'), { url: 'https://blog.example.com/sqlite' });
    expect(article.extracted).toBe('article');
    for (let i = 0; i < 8; i += 1) expect(article.markdown).toContain(`Point-${i}.`);
    expect(article.markdown).not.toContain('I disagree entirely');
  });

  it('a listing has no article: the whole page comes back, and says so', () => {
    const listing = htmlToMarkdown(page('listing.html'), { url: 'https://news.example.com/search?q=harbour' });
    expect(listing.extracted).toBe('page');
    expect(listing.markdown).toContain('Result 29: harbour item');
  });

  it('a CJK article keeps every paragraph and drops the channel links', () => {
    const article = htmlToMarkdown(page('cjk.html'), { url: 'https://news.example.cn/a' });
    expect(article.extracted).toBe('article');
    for (let i = 0; i < 14; i += 1) expect(article.markdown).toContain(`第${i}段。`);
    expect(article.markdown).not.toContain('频道12');
    expect(article.markdown).not.toContain('热门新闻');
  });
});
