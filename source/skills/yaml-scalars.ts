/** A YAML syntax error with the 1-based line of the frontmatter it was found on. */
export class YamlError extends Error {
  constructor(message: string, readonly line: number) {
    super(`line ${line}: ${message}`);
    this.name = 'YamlError';
  }
}

const escapes: Record<string, string> = {
  '0': '\0', a: '\x07', b: '\b', t: '\t', '\t': '\t', n: '\n', v: '\v', f: '\f', r: '\r', e: '\x1b',
  ' ': ' ', '"': '"', '/': '/', '\\': '\\', N: '\u0085', _: '\u00a0', L: '\u2028', P: '\u2029',
};

export function unescapeDoubleQuoted(raw: string, line: number): string {
  let out = '';
  for (let at = 0; at < raw.length; at += 1) {
    const char = raw[at]!;
    if (char !== '\\') {
      out += char;
      continue;
    }
    const code = raw[at + 1] ?? '';
    const width = code === 'x' ? 2 : code === 'u' ? 4 : code === 'U' ? 8 : 0;
    if (width > 0) {
      const hex = raw.slice(at + 2, at + 2 + width);
      if (!new RegExp(`^[0-9a-fA-F]{${width}}$`).test(hex)) throw new YamlError(`"\\${code}${hex}" is not a valid escape: it needs ${width} hex digits`, line);
      out += String.fromCodePoint(Number.parseInt(hex, 16));
      at += 1 + width;
      continue;
    }
    const replacement = escapes[code];
    if (replacement === undefined) throw new YamlError(`"\\${code}" is not a YAML escape; write "\\\\" for a backslash`, line);
    out += replacement;
    at += 1;
  }
  return out;
}

/** YAML 1.2 core schema: null, booleans, integers and floats; anything else is a string. */
export function resolvePlainScalar(word: string, line: number): unknown {
  const first = word[0];
  if (first === '&' || first === '*' || first === '!') {
    throw new YamlError(`anchors, aliases and tags ("${word.slice(0, 20)}") are not supported in frontmatter; quote the value if it is text`, line);
  }
  if (first === '@' || first === '`' || first === '%') throw new YamlError(`a value cannot start with "${first}" unquoted; put it in quotes`, line);
  if (/^(?:~|null|Null|NULL)?$/.test(word)) return null;
  if (/^(?:true|True|TRUE)$/.test(word)) return true;
  if (/^(?:false|False|FALSE)$/.test(word)) return false;
  if (/^[-+]?[0-9]+$/.test(word)) return Number.parseInt(word, 10);
  if (/^0o[0-7]+$/.test(word)) return Number.parseInt(word.slice(2), 8);
  if (/^0x[0-9a-fA-F]+$/.test(word)) return Number.parseInt(word.slice(2), 16);
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/.test(word)) return Number.parseFloat(word);
  if (/^[-+]?\.(?:inf|Inf|INF)$/.test(word)) return word.startsWith('-') ? -Infinity : Infinity;
  if (/^\.(?:nan|NaN|NAN)$/.test(word)) return Number.NaN;
  return word;
}
