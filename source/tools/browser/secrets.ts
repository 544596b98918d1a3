import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync, type StatePaths } from '../../config/index.js';

/** `credentials/browser-secrets.json`: `{ "NAME": "value" }`; the browser types a value by name, the model never reads one. */
export function browserSecretsFile(paths: Pick<StatePaths, 'credentials'>): string {
  return join(paths.credentials, 'browser-secrets.json');
}

const SECRET_NAME = /^[A-Za-z][\w.-]{0,63}$/;

export function readBrowserSecrets(paths: Pick<StatePaths, 'credentials'>): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(browserSecretsFile(paths), 'utf8'));
  } catch {
    return {};
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
  return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== ''));
}

/** Stores (or with `undefined`, removes) one secret; the file stays 0600. */
export function writeBrowserSecret(paths: Pick<StatePaths, 'credentials'>, name: string, value: string | undefined): void {
  if (!SECRET_NAME.test(name)) throw new Error(`"${name}" is not a secret name: use letters, digits, ".", "-" or "_", starting with a letter.`);
  const all = readBrowserSecrets(paths);
  if (value === undefined) delete all[name];
  else all[name] = value;
  mkdirSync(paths.credentials, { recursive: true, mode: 0o700 });
  writeFileAtomicSync(browserSecretsFile(paths), `${JSON.stringify(all, null, 2)}\n`, 0o600);
}
