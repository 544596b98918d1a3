import { isProbablyReaderable, Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';

function makeService(): TurndownService {
  const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  // Elements that carry no readable text for a person; their contents would only be noise.
  service.remove(['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'svg', 'canvas', 'head', 'title', 'meta', 'link']);
  return service;
}

let service: TurndownService | undefined;

export type FetchMode = 'article' | 'page';

export interface ReadablePage {
  title?: string;
  markdown: string;
  /** `article`: the main content Readability picked; `page`: the whole page (asked for, or no article found). */
  extracted: FetchMode;
}

/** Query parameters that only track who clicked: removed from every link. */
const TRACKING =
  /^(utm_[a-z_]+|fbclid|gclid|gclsrc|dclid|msclkid|yclid|igshid|mc_cid|mc_eid|_hsenc|_hsmi|mkt_tok|ref_src|ref_url|spm|scid|vero_id|oly_[a-z_]+)$/i;
/** Link targets longer than this move to a numbered list at the end, so the text stays readable and cheap. */
const LONG_URL = 80;

/** An absolute URL without tracking parameters, or undefined for what is not a web link. */
export function cleanUrl(raw: string, base: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw.trim(), base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:' && url.protocol !== 'mailto:') return undefined;
  for (const key of [...url.searchParams.keys()]) if (TRACKING.test(key)) url.searchParams.delete(key);
  return url.href;
}

type Doc = ReturnType<typeof parseHTML>['document'];

/** Links resolved and cleaned; lazy images given the source their `data-src`/`srcset` holds, so alt text and URL survive. */
function prepare(document: Doc, base: string): void {
  for (const link of document.querySelectorAll('a[href]')) {
    const href = cleanUrl(link.getAttribute('href') ?? '', base);
    if (href) link.setAttribute('href', href);
    else link.removeAttribute('href');
  }
  for (const image of document.querySelectorAll('img')) {
    const lazy = image.getAttribute('data-src') ?? image.getAttribute('data-original') ?? image.getAttribute('data-lazy-src');
    const fromSet = (image.getAttribute('srcset') ?? image.getAttribute('data-srcset') ?? '').split(',')[0]?.trim().split(/\s+/)[0];
    const src = image.getAttribute('src');
    const usable = src && !src.startsWith('data:') ? src : (lazy ?? fromSet);
    const resolved = usable ? cleanUrl(usable, base) : undefined;
    if (resolved) image.setAttribute('src', resolved);
    else image.removeAttribute('src');
  }
}

/** Long link targets as numbered references listed at the end: `[label][3]` … `[3]: https://…`. */
function compactLinks(markdown: string): string {
  const urls: string[] = [];
  const body = markdown.replace(/(!?)\[([^\]\n]*)\]\((\S+?)(?: "[^"]*")?\)/g, (whole, bang: string, label: string, url: string) => {
    if (url.length <= LONG_URL) return whole;
    let index = urls.indexOf(url);
    if (index < 0) index = urls.push(url) - 1;
    return `${bang}[${label}][${index + 1}]`;
  });
  if (urls.length === 0) return body;
  return `${body}\n\n${urls.map((url, i) => `[${i + 1}]: ${url}`).join('\n')}`;
}

function toMarkdown(html: string): string {
  service ??= makeService();
  return compactLinks(
    service
      .turndown(html)
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
  );
}

/** A short header of what the page says about itself: byline, site, date. */
function metadataLine(article: { byline?: string | null; siteName?: string | null; publishedTime?: string | null }): string {
  const parts = [article.byline?.trim(), article.siteName?.trim(), article.publishedTime ? `published ${article.publishedTime.trim()}` : undefined].filter(
    (part): part is string => Boolean(part),
  );
  return parts.join(' · ');
}

function pageTitle(document: Doc): string | undefined {
  const og = document.querySelector('meta[property="og:title"]')?.getAttribute('content');
  const title = og ?? document.querySelector('title')?.textContent ?? '';
  return title.replace(/\s+/g, ' ').trim() || undefined;
}

/**
 * Readable Markdown of an HTML page. In `article` mode, Readability picks the
 * main content (no navigation, sidebars, teasers, comments or footers) and a
 * header gives its title, byline, site and date; where it finds no article
 * (a listing, a search page, an app shell) the whole page is converted and
 * `extracted` says so. Links are absolute, without tracking parameters, and
 * long ones are listed at the end.
 */
export function htmlToMarkdown(html: string, options: { url: string; mode?: FetchMode }): ReadablePage {
  let { document } = parseHTML(html);
  const title = pageTitle(document);
  // A listing, a search page or an app shell has no article: Readability would pick some part of it.
  // (Paragraphs of 40 characters count, so CJK text, dense in few characters, is recognised.)
  if (options.mode !== 'page' && isProbablyReaderable(document as unknown as Document, { minContentLength: 40, minScore: 20 })) {
    // Readability changes the document it reads; the fallback below parses the page again.
    const article = new Readability(document as unknown as Document).parse();
    if (article?.content && (article.textContent ?? '').trim().length >= 200) {
      const heading = article.title?.trim() || title;
      const meta = metadataLine(article);
      const header = [heading ? `# ${heading}` : '', meta].filter(Boolean).join('\n');
      // Only the article's own links and images are resolved and cleaned: a page's thousands of menu links are never touched.
      const content = parseHTML(`<!doctype html><html><body>${article.content}</body></html>`).document;
      prepare(content, options.url);
      const markdown = `${header ? `${header}\n\n` : ''}${toMarkdown(content.body.innerHTML)}`;
      return { ...(heading ? { title: heading } : {}), markdown, extracted: 'article' };
    }
    document = parseHTML(html).document;
  }
  prepare(document, options.url);
  const body = document.querySelector('body');
  return { ...(title ? { title } : {}), markdown: toMarkdown(body ? body.innerHTML : document.toString()), extracted: 'page' };
}
