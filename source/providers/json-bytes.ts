/**
 * Request bodies as UTF-8 bytes built from pieces that are encoded once and
 * reused: a turn sends the same 150,000-character system prompt and the same
 * hundreds of history messages as the last one, with a few characters (the
 * time) and a message or two new. Encoding all of it again costs more CPU
 * than the rest of the turn.
 */

/**
 * UTF-8 bytes of `text`. Buffer.from measures the string and then encodes it,
 * two passes that cost twice one encode into room for the worst case when
 * the text holds any non-Latin-1 character (a `…` is enough).
 */
export function utf8(text: string): Buffer {
  const room = text.length * 3;
  if (scratch.length < room) scratch = Buffer.allocUnsafeSlow(Math.max(room, scratch.length * 2));
  const length = scratch.write(text, 'utf8');
  // Callers cache these bytes for as long as the session lives: an exact copy of its own, never a view that pins
  // three times the room or a slab of Node's shared pool (which grew the gateway's RSS by ~23 KB per session).
  const bytes = Buffer.allocUnsafeSlow(length);
  scratch.copy(bytes, 0, 0, length);
  return bytes;
}

/** Room to encode into, reused by every call (grown, never shrunk). */
let scratch = Buffer.allocUnsafeSlow(64 * 1024);

/** The UTF-8 bytes of `JSON.stringify(value)`. */
export function jsonBytes(value: unknown): Buffer {
  return utf8(JSON.stringify(value));
}

/** JSON.stringify of a string without its quotes, as UTF-8. */
function escapedBytes(text: string): Buffer {
  const json = JSON.stringify(text);
  return utf8(json.slice(1, json.length - 1));
}

const QUOTE = Buffer.from('"');

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Whether cutting `text` after `head` chars or before the last `tail` chars would split a surrogate pair. */
function splitsPair(text: string, head: number, tail: number): boolean {
  const cuts = [head, text.length - tail];
  return cuts.some((cut) => cut > 0 && cut < text.length && isHigh(text.charCodeAt(cut - 1)) && isLow(text.charCodeAt(cut)));
}

/** Length of the common prefix, never ending inside a surrogate pair (each half alone would be escaped). */
function commonPrefix(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let i = 0;
  while (i < max && a.charCodeAt(i) === b.charCodeAt(i)) i += 1;
  if (i > 0 && i < b.length && isHigh(b.charCodeAt(i - 1)) && isLow(b.charCodeAt(i))) i -= 1;
  return i;
}

/** Length of the common suffix, at most `max`, never starting inside a surrogate pair. */
function commonSuffix(a: string, b: string, max: number): number {
  let n = 0;
  const limit = Math.min(max, a.length, b.length);
  while (n < limit && a.charCodeAt(a.length - 1 - n) === b.charCodeAt(b.length - 1 - n)) n += 1;
  const start = b.length - n;
  if (n > 0 && start > 0 && isLow(b.charCodeAt(start)) && isHigh(b.charCodeAt(start - 1))) n -= 1;
  return n;
}

interface Shared {
  head: string;
  headBytes: Buffer;
  tail: string;
  tailBytes: Buffer;
}

interface Template {
  /** The last text seen, to find what the next one shares with it. */
  last: string;
  /** Unset until a second similar text showed what stays the same. */
  shared: Shared | undefined;
}

/** Below this, reusing pieces saves less than finding them costs. */
const MIN_SHARED_CHARS = 4096;
/** Distinct long strings (system prompts of concurrent sessions) kept at once. */
const TEMPLATES_KEPT = 4;

/**
 * Encodes long strings as JSON string literals, reusing the encoded head and
 * tail a string shares with the previous one of its kind: only the middle
 * that changed (the runtime section's clock) is encoded again.
 */
export class JsonStringEncoder {
  readonly #templates: Template[] = [];

  /** The pieces of `JSON.stringify(text)` as UTF-8, in order. */
  encode(text: string): Buffer[] {
    if (text.length < MIN_SHARED_CHARS) return [jsonBytes(text)];
    for (const template of this.#templates) {
      const shared = template.shared;
      if (!shared) continue;
      const { head, tail } = shared;
      if (head.length + tail.length <= text.length && text.startsWith(head) && text.endsWith(tail) && !splitsPair(text, head.length, tail.length)) {
        template.last = text;
        return [QUOTE, shared.headBytes, escapedBytes(text.slice(head.length, text.length - tail.length)), shared.tailBytes, QUOTE];
      }
    }
    this.#learn(text);
    return [jsonBytes(text)];
  }

  /** Keeps the head and tail `text` shares with the most similar recent string, once they are long enough to pay. */
  #learn(text: string): void {
    let best: { template: Template; head: number; tail: number } | undefined;
    for (const template of this.#templates) {
      const head = commonPrefix(template.last, text);
      const tail = commonSuffix(template.last, text, Math.min(template.last.length, text.length) - head);
      if (!best || head + tail > best.head + best.tail) best = { template, head, tail };
    }
    if (best && best.head + best.tail >= MIN_SHARED_CHARS) {
      const head = text.slice(0, best.head);
      const tail = text.slice(text.length - best.tail);
      best.template.last = text;
      best.template.shared = { head, headBytes: escapedBytes(head), tail, tailBytes: escapedBytes(tail) };
      return;
    }
    // Nothing similar yet: remember the text, so the next one like it can share with it.
    if (this.#templates.length >= TEMPLATES_KEPT) this.#templates.shift();
    this.#templates.push({ last: text, shared: undefined });
  }
}
