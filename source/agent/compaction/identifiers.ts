/**
 * Identifiers a summary must carry verbatim: the things a user cannot
 * reconstruct from a paraphrase. Patterns run in this order and each match is
 * blanked out before the next pattern, so a URL's path or a host's port is
 * not reported a second time on its own.
 */
const patterns: ReadonlyArray<{ kind: IdentifierKind; regex: RegExp }> = [
  { kind: 'url', regex: /\b(?:https?|wss?|ftp|ssh|git|file):\/\/[^\s<>"'`)\]}]+/gi },
  { kind: 'uuid', regex: /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi },
  { kind: 'ip', regex: /\b(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?::\d{1,5})?\b/g },
  {
    kind: 'path',
    regex:
      /(?:~|\.{1,2})?(?:\/[\w.@+-]+){2,}\/?|(?:~|\.{1,2})\/[\w.@+-]+|\b[A-Za-z]:\\(?:[\w.@+-]+\\?)+|\b[\w@+-]+(?:\/[\w@+-]+)*\/[\w@+-]+\.[A-Za-z0-9]{1,8}\b/g,
  },
  { kind: 'host', regex: /\b(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,24})(?::\d{1,5})?\b/gi },
  { kind: 'hash', regex: /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,64}\b/gi },
  { kind: 'ticket', regex: /\b[A-Z][A-Z0-9]{1,9}-\d{1,7}\b|(?<![\w&])#\d{2,7}\b/g },
  { kind: 'port', regex: /\bport\s+(\d{2,5})\b|(?<![\w.:])localhost:\d{2,5}\b/gi },
];

export type IdentifierKind = 'url' | 'uuid' | 'ip' | 'path' | 'host' | 'hash' | 'ticket' | 'port';

export interface Identifier {
  kind: IdentifierKind;
  value: string;
}

/**
 * Top-level domains a name must end in to count as a host (any two-letter
 * country code also counts for names with two dots or more); without this
 * list every `file.ts` or `object.method` would be taken for a host name.
 */
const knownTlds = new Set([
  'com',
  'org',
  'net',
  'io',
  'dev',
  'ai',
  'app',
  'co',
  'local',
  'internal',
  'lan',
  'cloud',
  'sh',
  'me',
  'edu',
  'gov',
  'de',
  'uk',
  'fr',
  'jp',
  'cn',
  'eu',
  'us',
  'xyz',
  'corp',
  'home',
  'test',
  'example',
]);
const fileExtensions = new Set([
  'ts',
  'tsx',
  'js',
  'mjs',
  'cjs',
  'jsx',
  'json',
  'md',
  'py',
  'rs',
  'go',
  'java',
  'rb',
  'sh',
  'txt',
  'yml',
  'yaml',
  'toml',
  'lock',
  'html',
  'css',
  'c',
  'h',
  'cpp',
  'log',
  'sql',
  'csv',
  'xml',
  'ini',
  'conf',
  'env',
  'jsonl',
]);

function acceptHost(value: string): boolean {
  const host = value.replace(/:\d+$/, '');
  // Code member chains (`this.deps.config`, `process.env.HOME`) look like host names; real hosts are lowercase.
  if (host !== host.toLowerCase()) return false;
  const labels = host.split('.');
  const tld = labels[labels.length - 1] ?? '';
  if (fileExtensions.has(tld)) return false;
  if (labels.length === 2) return knownTlds.has(tld);
  return knownTlds.has(tld) || tld.length === 2;
}

function clean(kind: IdentifierKind, raw: string): string {
  if (kind === 'url') return raw.replace(/[.,;:!?]+$/, '');
  if (kind === 'path') return raw.replace(/[.,;:]+$/, '');
  return raw;
}

/** Every distinct identifier in `text`, in order of first appearance. */
export function extractIdentifiers(text: string): Identifier[] {
  let rest = text;
  const found: Array<Identifier & { at: number }> = [];
  const seen = new Set<string>();
  for (const { kind, regex } of patterns) {
    regex.lastIndex = 0;
    rest = rest.replace(regex, (match: string, ...groups: unknown[]) => {
      const at = groups.find((group): group is number => typeof group === 'number') ?? 0;
      const portNumber = kind === 'port' && typeof groups[0] === 'string' ? groups[0] : undefined;
      // "port 8080" survives as 8080 however the summary phrases it.
      const value = portNumber ?? clean(kind, match);
      const keep = (kind === 'port' || value.length >= 3) && (kind !== 'host' || acceptHost(value));
      if (keep && !seen.has(value)) {
        seen.add(value);
        found.push({ kind, value, at });
      }
      return keep ? ' '.repeat(match.length) : match;
    });
  }
  return found.sort((a, b) => a.at - b.at).map(({ kind, value }) => ({ kind, value }));
}

/** The identifiers that do not appear verbatim in `summary`. */
export function missingIdentifiers(summary: string, identifiers: readonly Identifier[]): Identifier[] {
  return identifiers.filter((identifier) => !summary.includes(identifier.value));
}

/** The list appended when a summariser still dropped identifiers after being told which. */
export function identifierAppendix(missing: readonly Identifier[]): string {
  return ['', '## Exact identifiers (kept verbatim from the compacted conversation)', ...missing.map((identifier) => `- ${identifier.value}`)].join('\n');
}
