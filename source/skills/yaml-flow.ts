import { YamlError, resolvePlainScalar, unescapeDoubleQuoted } from './yaml-scalars.js';

/** Sets an own key, so a skill's `__proto__:` is data and never a prototype. */
export function setKey(map: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(map, key, { value, enumerable: true, writable: true, configurable: true });
  else map[key] = value;
}

/**
 * Flow collections (`[a, b]`, `{key: value}`), which also covers the JSON that
 * other agents' skills often put in `metadata:` on one line.
 */
export class FlowParser {
  #at = 0;

  constructor(private readonly text: string, private readonly line: number) {}

  parseDocument(): unknown {
    const value = this.#value();
    this.#space();
    if (this.#at < this.text.length && this.text[this.#at] !== '#') this.#fail(`unexpected "${this.text.slice(this.#at, this.#at + 10)}" after a complete value`);
    return value;
  }

  #fail(message: string): never {
    throw new YamlError(message, this.line);
  }

  #space(): void {
    while (this.#at < this.text.length && /\s/.test(this.text[this.#at]!)) this.#at += 1;
  }

  #value(): unknown {
    this.#space();
    const char = this.text[this.#at];
    if (char === '[') return this.#sequence();
    if (char === '{') return this.#mapping();
    if (char === '"' || char === "'") return this.#quoted();
    return this.#plain();
  }

  #sequence(): unknown[] {
    this.#at += 1;
    const items: unknown[] = [];
    for (;;) {
      this.#space();
      if (this.text[this.#at] === ']') {
        this.#at += 1;
        return items;
      }
      items.push(this.#value());
      this.#space();
      const next = this.text[this.#at];
      if (next === ',') this.#at += 1;
      else if (next !== ']') this.#fail(next === undefined ? 'a "[" list is not closed with "]"' : `expected "," or "]" in a list, found "${next}"`);
    }
  }

  #mapping(): Record<string, unknown> {
    this.#at += 1;
    const map: Record<string, unknown> = {};
    for (;;) {
      this.#space();
      if (this.text[this.#at] === '}') {
        this.#at += 1;
        return map;
      }
      const key = this.#value();
      if (key !== null && typeof key === 'object') this.#fail('a mapping key must be a plain value, not a list or mapping');
      const name = String(key);
      this.#space();
      let value: unknown = null;
      if (this.text[this.#at] === ':') {
        this.#at += 1;
        value = this.#value();
      }
      if (Object.hasOwn(map, name)) this.#fail(`the key "${name}" appears twice`);
      setKey(map, name, value);
      this.#space();
      const next = this.text[this.#at];
      if (next === ',') this.#at += 1;
      else if (next !== '}') this.#fail(next === undefined ? 'a "{" mapping is not closed with "}"' : `expected "," or "}" in a mapping, found "${next}"`);
    }
  }

  #quoted(): string {
    const quote = this.text[this.#at]!;
    let at = this.#at + 1;
    let raw = '';
    for (;;) {
      const char = this.text[at];
      if (char === undefined) this.#fail(`a ${quote === '"' ? 'double' : 'single'}-quoted string is not closed`);
      if (quote === "'" && char === "'") {
        if (this.text[at + 1] === "'") {
          raw += "'";
          at += 2;
          continue;
        }
        break;
      }
      if (quote === '"' && char === '\\') {
        raw += char + (this.text[at + 1] ?? '');
        at += 2;
        continue;
      }
      if (quote === '"' && char === '"') break;
      raw += char;
      at += 1;
    }
    this.#at = at + 1;
    return quote === '"' ? unescapeDoubleQuoted(raw.replace(/\s*\n\s*/g, ' '), this.line) : raw.replace(/\s*\n\s*/g, ' ');
  }

  #plain(): unknown {
    const start = this.#at;
    while (this.#at < this.text.length) {
      const char = this.text[this.#at]!;
      if (char === ',' || char === ']' || char === '}' || char === '[' || char === '{') break;
      if (char === ':' && /[\s,\]}]/.test(this.text[this.#at + 1] ?? ' ')) break;
      if (char === '#' && /\s/.test(this.text[this.#at - 1] ?? '')) break;
      this.#at += 1;
    }
    const word = this.text.slice(start, this.#at).trim();
    if (word === '') this.#fail(`expected a value, found "${this.text[this.#at] ?? 'the end of the line'}"`);
    return resolvePlainScalar(word.replace(/\s*\n\s*/g, ' '), this.line);
  }
}
