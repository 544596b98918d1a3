/**
 * What the Bot API refuses in a message text, as it refuses it (TDLib's HTML
 * rules): tags it does not know, tags out of order, entities other than the
 * four named ones and numeric ones, a `<code>` inside `<pre>` that is not its
 * only child, text that is empty or only whitespace, longer than 4096 UTF-16
 * units after parsing, or not valid UTF-16. The fake answers each with the
 * real description, so a reply claw renders wrong is lost here as it would be
 * in production.
 */

const TAGS = new Set(['b', 'strong', 'i', 'em', 'u', 'ins', 's', 'strike', 'del', 'tg-spoiler', 'span', 'a', 'code', 'pre', 'blockquote', 'tg-emoji']);
const LIMIT = 4096;

function parseHtml(html: string): { text: string } | { error: string } {
  const stack: string[] = [];
  let text = '';
  let at = 0;
  while (at < html.length) {
    const char = html[at]!;
    if (char === '<') {
      const end = html.indexOf('>', at);
      if (end < 0) return { error: `Unclosed start tag at byte offset ${at}` };
      const body = html.slice(at + 1, end);
      at = end + 1;
      if (body.startsWith('/')) {
        const name = body.slice(1).trim().toLowerCase();
        if (stack.pop() !== name) return { error: `Unmatched end tag at byte offset ${end}, expected "</${stack.at(-1) ?? ''}>", found "</${name}>"` };
        continue;
      }
      const name = /^([a-z-]+)/i.exec(body)?.[1]?.toLowerCase() ?? '';
      if (!TAGS.has(name)) return { error: `Unsupported start tag "${name}" at byte offset ${at - body.length - 2}` };
      if (name === 'a' && !/^a\s+href="[^"]*"$/i.test(body.trim())) return { error: "Can't find end of href attribute value" };
      if (name === 'span' && !/class="tg-spoiler"/.test(body)) return { error: 'Tag "span" must have class "tg-spoiler"' };
      const parent = stack.at(-1);
      if (parent === 'code' || (parent === 'pre' && name !== 'code')) return { error: `Can't parse entities: entity "${name}" can't be inside "${parent}"` };
      if (name === 'blockquote' && stack.includes('blockquote')) return { error: "Can't parse entities: nested blockquotes are not allowed" };
      stack.push(name);
      continue;
    }
    if (char === '&') {
      const match = /^&(lt|gt|amp|quot|#\d{1,7}|#x[0-9a-f]{1,6});/i.exec(html.slice(at));
      if (!match) return { error: `Unsupported entity at byte offset ${at}` };
      const body = match[1]!;
      text +=
        body === 'lt'
          ? '<'
          : body === 'gt'
            ? '>'
            : body === 'amp'
              ? '&'
              : body === 'quot'
                ? '"'
                : String.fromCodePoint(body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10));
      at += match[0].length;
      continue;
    }
    text += char;
    at += 1;
  }
  if (stack.length > 0) return { error: `Can't find end tag corresponding to start tag "${stack.at(-1)}"` };
  return { text };
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The Bot API's 400 description for this sendMessage/editMessageText text, or undefined when Telegram takes it. */
export function telegramTextRefusal(params: Record<string, unknown>): string | undefined {
  const raw = typeof params.text === 'string' ? params.text : '';
  if (LONE_SURROGATE.test(raw)) return 'Bad Request: text must be encoded in UTF-8';
  let text = raw;
  if (params.parse_mode === 'HTML') {
    const parsed = parseHtml(raw);
    if ('error' in parsed) return `Bad Request: can't parse entities: ${parsed.error}`;
    text = parsed.text;
  }
  if (text.trim() === '') return 'Bad Request: message text is empty';
  if (text.length > LIMIT) return 'Bad Request: message is too long';
  return undefined;
}

/** The text a reader sees once Telegram parsed the HTML (for asserting that nothing was lost). */
export function telegramVisibleText(params: Record<string, unknown>): string {
  const raw = typeof params.text === 'string' ? params.text : '';
  if (params.parse_mode !== 'HTML') return raw;
  const parsed = parseHtml(raw);
  return 'text' in parsed ? parsed.text : raw;
}
