import { ConfigError, readRawConfig, writeRawConfig } from './config-file.js';
import { setAtPath } from './config-keys.js';

/**
 * Sets one `budgets.*` key to an amount (dollars or tokens) or to "off" (no
 * cap), the way `claw budget set` and `/cost set` take it. The whole file is
 * validated before anything is written; a running gateway applies it live.
 */
export function setBudget(file: string, key: string, text: string): number | null {
  if (!key.startsWith('budgets.')) throw new ConfigError(`"${key}" is not a budget key; budget keys start with "budgets." (\`claw budget\` lists them).`, file);
  const value = /^(off|none|null)$/i.test(text.trim()) ? null : Number(text);
  if (value !== null && (!Number.isFinite(value) || value < 0 || text.trim() === ''))
    throw new ConfigError(`"${text}" is not an amount; give a number (dollars or tokens) or "off".`, file);
  writeRawConfig(file, setAtPath(readRawConfig(file), key, value));
  return value;
}
