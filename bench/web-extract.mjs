// web_fetch's main-content extraction on a 1 MB page (the news fixture's
// menus, sidebars and footer grown to 1 MB around a 40-paragraph article):
// p50/p95 of 20 runs of article mode (linkedom + Readability + turndown)
// against page mode (the whole page through turndown), and the size of what
// each returns. Run after `npm run build`: node bench/web-extract.mjs — prints one JSON object.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { htmlToMarkdown } from '../dist/tools/web/html-to-markdown.js';

const base = readFileSync(new URL('../test/tools/web/pages/news.html', import.meta.url), 'utf8');
const [head, rest] = base.split('<main>');
const [main, tail] = rest.split('</main>');
const article = main.replace(
  '</article>',
  `${Array.from({ length: 28 }, (_, i) => `<p>${'The harbour works continue as planned, the engineers said. '.repeat(8)} Extra-${i}.</p>`).join('')}</article>`,
);
let chrome = '';
for (let i = 0; head.length + chrome.length + article.length + tail.length < 1_000_000; i += 1)
  chrome += `<aside class="related"><h3>Related ${i}</h3><ul>${Array.from({ length: 20 }, (_, j) => `<li><a href="/related/${i}/${j}?utm_source=rel">Related story ${i}.${j} with a long teaser headline</a></li>`).join('')}</ul></aside>`;
const page = `${head}<main>${article}</main>${chrome}${tail}`;

const url = 'https://news.example.com/2026/harbour';
const time = (mode) =>
  Array.from({ length: 20 }, () => {
    const start = performance.now();
    htmlToMarkdown(page, { url, mode });
    return performance.now() - start;
  }).sort((a, b) => a - b);
time('article');
time('page');
const articleMs = time('article');
const pageMs = time('page');
const at = (values, p) => Math.round(values[Math.floor((values.length - 1) * p)] * 10) / 10;
process.stdout.write(
  `${JSON.stringify({
    bench: 'web-extract',
    pageBytes: page.length,
    article: { p50: at(articleMs, 0.5), p95: at(articleMs, 0.95), chars: htmlToMarkdown(page, { url }).markdown.length, targetP95: 200 },
    page: { p50: at(pageMs, 0.5), p95: at(pageMs, 0.95), chars: htmlToMarkdown(page, { url, mode: 'page' }).markdown.length },
  })}\n`,
);
