import { existsSync, readFileSync } from 'node:fs';
import type { z } from 'zod';
import { configSchema, type ClawConfig } from './schema.js';
import { parseJsonc } from './jsonc.js';
import { writeFileAtomicSync } from './atomic-file.js';
import { knownValidation, rememberValidation } from './validated-config-cache.js';

export class ConfigError extends Error {
  constructor(
    message: string,
    readonly file: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let node = root;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

/** Turns zod issues into lines a person can act on: key, expectation, actual value. */
export function formatConfigIssues(error: z.ZodError, raw: unknown, file: string): string {
  const lines = error.issues.map((issue) => {
    const key = issue.path.map(String).join('.') || '(top level)';
    if (issue.code === 'unrecognized_keys') {
      const keys = issue.keys.map((k) => (key === '(top level)' ? k : `${key}.${k}`));
      return `  - unknown key ${keys.join(', ')}: remove it or check the spelling`;
    }
    return `  - ${key}: ${issue.message} (found ${describeValue(valueAt(raw, issue.path))})`;
  });
  return `${file} is not valid:\n${lines.join('\n')}\nFix the file, or use \`claw config set <key> <value>\` / \`claw config unset <key>\`.`;
}

export function validateConfig(raw: unknown, file: string): ClawConfig {
  // Parsed once per start or edit: zod's generated fast path costs more to compile than it saves on one parse.
  const result = configSchema.safeParse(raw ?? {}, { jitless: true });
  if (!result.success) throw new ConfigError(formatConfigIssues(result.error, raw, file), file);
  return result.data;
}

/** The file's own content (no defaults applied); `{}` when it does not exist. */
export function readRawConfig(file: string): Record<string, unknown> {
  return parseRawConfig(readConfigText(file), file);
}

function readConfigText(file: string): string {
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

function parseRawConfig(text: string, file: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = parseJsonc(text, file);
  } catch (error) {
    throw new ConfigError(`${(error as Error).message}\nFix the syntax of ${file}.`, file);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ConfigError(`${file} must hold a JSON object ({ ... }).`, file);
  }
  return parsed as Record<string, unknown>;
}

export function loadConfig(file: string): ClawConfig {
  const text = readConfigText(file);
  const known = knownValidation(file, text);
  if (known) return known;
  const config = validateConfig(parseRawConfig(text, file), file);
  rememberValidation(file, text, config);
  return config;
}

/**
 * Validates before writing so a bad `config set` never leaves a broken file.
 * Comments in a hand-edited file are not preserved by programmatic writes.
 */
export function writeRawConfig(file: string, raw: Record<string, unknown>): ClawConfig {
  const config = validateConfig(raw, file);
  writeFileAtomicSync(file, `${JSON.stringify(raw, null, 2)}\n`, 0o600);
  return config;
}
