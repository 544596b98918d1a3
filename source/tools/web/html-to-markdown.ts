import TurndownService from 'turndown';

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return entities[name.toLowerCase()] ?? whole;
  });
}

function makeService(): TurndownService {
  const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  // Elements that carry no readable text for a person; their contents would only be noise.
  service.remove(['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'svg', 'canvas', 'head', 'title', 'meta', 'link']);
  return service;
}

let service: TurndownService | undefined;

export interface ReadablePage {
  title?: string;
  markdown: string;
}

/** Readable markdown of an HTML page plus its title. */
export function htmlToMarkdown(html: string): ReadablePage {
  service ??= makeService();
  const titleMatch = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  const title = titleMatch ? decodeEntities(titleMatch[1]!).replace(/\s+/g, ' ').trim() : '';
  const markdown = service
    .turndown(html)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return title ? { title, markdown } : { markdown };
}
