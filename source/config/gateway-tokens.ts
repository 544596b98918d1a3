import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomicSync } from './atomic-file.js';
import type { StatePaths } from './paths.js';
import { scope, scopes, type Scope, lazySchema } from '../protocol/index.js';

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Constant-time comparison of a presented token with the real one. */
export function tokenMatches(presented: string, expected: string): boolean {
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

const scopedToken = lazySchema(() =>
  z.strictObject({
    id: z.string().regex(/^[0-9a-f]{8}$/),
    name: z.string().optional(),
    /** sha256 of the token: the token itself is shown once, at creation, and never stored. */
    hash: z.string().regex(/^[0-9a-f]{64}$/),
    scopes: z.array(scope).min(1),
    createdAt: z.number(),
  }),
);
export type ScopedToken = z.infer<typeof scopedToken>;
const tokensFile = lazySchema(() => z.strictObject({ version: z.literal(1), tokens: z.array(scopedToken) }));

/** Every scope: what the main gateway token (the operator's) grants. */
export const OPERATOR_SCOPES: readonly Scope[] = scopes;

export function scopedTokensPath(paths: StatePaths): string {
  return join(paths.credentials, 'gateway-tokens.json');
}

export function listScopedTokens(paths: StatePaths): ScopedToken[] {
  const file = scopedTokensPath(paths);
  if (!existsSync(file)) return [];
  const parsed = tokensFile.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file} is not a valid token list. Move it aside; the tokens it held stop working.`);
  return parsed.data.tokens;
}

function writeScopedTokens(paths: StatePaths, tokens: ScopedToken[]): void {
  mkdirSync(paths.credentials, { recursive: true, mode: 0o700 });
  writeFileAtomicSync(scopedTokensPath(paths), `${JSON.stringify({ version: 1, tokens }, null, 2)}\n`, 0o600);
}

/** Parses `read,write`; says which names exist when one is wrong. */
export function parseScopes(text: string): Scope[] {
  const names = [
    ...new Set(
      text
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    ),
  ];
  const unknown = names.filter((name) => !(scopes as readonly string[]).includes(name));
  if (names.length === 0 || unknown.length) {
    throw new Error(
      `${unknown.length ? `unknown scope ${unknown.map((n) => `"${n}"`).join(', ')}` : 'no scopes given'}: use a comma-separated list of ${scopes.join(', ')}`,
    );
  }
  return names as Scope[];
}

/** A new narrower token: returned once in clear, stored only as its hash. */
export function createScopedToken(paths: StatePaths, tokenScopes: readonly Scope[], name?: string, now = Date.now()): { token: string; record: ScopedToken } {
  const tokens = listScopedTokens(paths);
  let id = randomBytes(4).toString('hex');
  while (tokens.some((t) => t.id === id)) id = randomBytes(4).toString('hex');
  const token = `claw_${id}_${randomBytes(32).toString('base64url')}`;
  const record: ScopedToken = { id, ...(name ? { name } : {}), hash: hashToken(token), scopes: [...tokenScopes], createdAt: now };
  writeScopedTokens(paths, [...tokens, record]);
  return { token, record };
}

/** Removes a token by id (or a unique prefix of it); returns what was removed. */
export function revokeScopedToken(paths: StatePaths, idPrefix: string): ScopedToken {
  const tokens = listScopedTokens(paths);
  const matches = tokens.filter((t) => t.id.startsWith(idPrefix));
  if (matches.length !== 1) {
    throw new Error(
      matches.length
        ? `"${idPrefix}" matches ${matches.length} tokens; give more of the id.`
        : `No token "${idPrefix}". Run \`claw gateway token list\` to see ids.`,
    );
  }
  writeScopedTokens(
    paths,
    tokens.filter((t) => t !== matches[0]),
  );
  return matches[0]!;
}

/**
 * The scopes a presented token carries: all of them for the main token,
 * the stored ones for a scoped token, undefined for anything else. Every
 * stored hash is compared in constant time.
 */
export function scopesForToken(paths: StatePaths, mainToken: string, presented: string): Scope[] | undefined {
  if (tokenMatches(presented, mainToken)) return [...OPERATOR_SCOPES];
  const hash = Buffer.from(hashToken(presented), 'hex');
  let found: ScopedToken | undefined;
  for (const token of listScopedTokens(paths)) if (timingSafeEqual(hash, Buffer.from(token.hash, 'hex'))) found = token;
  return found ? [...found.scopes] : undefined;
}
