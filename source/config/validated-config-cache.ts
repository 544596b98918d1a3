import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomicSync } from './atomic-file.js';
import type { ClawConfig } from './schema.js';

// Set by scripts/build.mjs for the bundle: a hash of the code that decides
// what a claw.json validates to (config/, protocol/, zod's version), and the
// config an absent or empty claw.json validates to. From source (tests of
// modules) neither exists, and every load validates.
declare const CLAW_CONFIG_SCHEMA_ID: string | undefined;
declare const CLAW_CONFIG_DEFAULTS: string | undefined;

const schemaId = typeof CLAW_CONFIG_SCHEMA_ID === 'string' ? CLAW_CONFIG_SCHEMA_ID : undefined;

interface CacheFile {
  schema: string;
  text: string;
  config: ClawConfig;
}

/** Where the last validated claw.json is kept: the state dir's `cache/`. */
export function validatedConfigPath(file: string): string {
  return join(dirname(file), 'cache', 'validated-config.json');
}

/**
 * What a claw.json holding `text` validates to, when that is known without
 * building the schema: the built-in defaults for an empty file, or the last
 * validation of this very text by this very schema. Building and running the
 * config schema costs a gateway start ~25 ms; the answer depends on nothing
 * but the text and the schema code (no environment, no other file).
 */
export function knownValidation(file: string, text: string): ClawConfig | undefined {
  if (text.trim() === '' && typeof CLAW_CONFIG_DEFAULTS === 'string') return JSON.parse(CLAW_CONFIG_DEFAULTS) as ClawConfig;
  if (!schemaId) return undefined;
  try {
    const cached = JSON.parse(readFileSync(validatedConfigPath(file), 'utf8')) as Partial<CacheFile>;
    // The whole text must match: any edit, even of a comment, validates again.
    return cached.schema === schemaId && cached.text === text && cached.config ? cached.config : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps a successful validation for the next load; a file that cannot be written only costs that load its shortcut. */
export function rememberValidation(file: string, text: string, config: ClawConfig): void {
  if (!schemaId || text.trim() === '') return;
  const entry: CacheFile = { schema: schemaId, text, config };
  try {
    // The config may hold keys: private like claw.json itself.
    writeFileAtomicSync(validatedConfigPath(file), JSON.stringify(entry), 0o600);
  } catch {
    // A full or read-only disk must not stop the config from loading.
  }
}
