import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface KnownSecret {
  /** Shown in place of the value: `[redacted: <name>]`. */
  name: string;
  value: string;
}

/** Shorter values would match ordinary text (and are not secrets worth the name). */
const MIN_SECRET_LENGTH = 8;

/** Env names that hold credentials by convention (OPENAI_API_KEY, TELEGRAM_BOT_TOKEN, …). */
const SECRET_ENV = /(^|_)(API_?KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|CREDENTIALS?|AUTH)($|_)/i;

/**
 * Replaces the exact values of known secrets in tool results before the
 * model reads them. Values are matched as written and in the encodings a
 * command is likely to print them in (URL-encoded, base64).
 */
export class SecretRedactor {
  readonly #byName = new Map<string, string>();
  #pattern: RegExp | undefined;
  #names = new Map<string, string>();

  constructor(secrets: readonly KnownSecret[] = []) {
    for (const secret of secrets) this.#byName.set(secret.name, secret.value);
    this.#compile();
  }

  /** Adds or replaces one secret (e.g. a channel token the daemon learned); an empty value removes it. */
  set(name: string, value: string | undefined): void {
    if (value === undefined || value === '') this.#byName.delete(name);
    else this.#byName.set(name, value);
    this.#compile();
  }

  get size(): number {
    return this.#byName.size;
  }

  /** The name of a known secret `text` carries (as is, URL-encoded or base64), or undefined. */
  find(text: string): string | undefined {
    if (!this.#pattern || text.length === 0) return undefined;
    this.#pattern.lastIndex = 0;
    const match = this.#pattern.exec(text);
    this.#pattern.lastIndex = 0;
    return match ? (this.#names.get(match[0]) ?? 'secret') : undefined;
  }

  redact(text: string): string {
    if (!this.#pattern || text.length === 0) return text;
    return text.replace(this.#pattern, (match) => `[redacted: ${this.#names.get(match) ?? 'secret'}]`);
  }

  #compile(): void {
    const names = new Map<string, string>();
    for (const [name, raw] of this.#byName) {
      const value = raw.trim();
      if (value.length < MIN_SECRET_LENGTH) continue;
      for (const form of [
        value,
        encodeURIComponent(value),
        Buffer.from(value).toString('base64').replace(/=+$/, ''),
        Buffer.from(value).toString('base64url'),
      ]) {
        if (!names.has(form)) names.set(form, name);
      }
    }
    this.#names = names;
    const forms = [...names.keys()].sort((a, b) => b.length - a.length);
    this.#pattern = forms.length ? new RegExp(forms.map((form) => form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g') : undefined;
  }
}

function stringLeaves(value: unknown, path: string, out: KnownSecret[]): void {
  if (typeof value === 'string') out.push({ name: path, value });
  else if (Array.isArray(value)) value.forEach((item, i) => stringLeaves(item, `${path}[${i}]`, out));
  else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) stringLeaves(item, `${path}.${key}`, out);
}

/** Every string in the files of the credentials folder (provider keys, the gateway token, profiles). */
function credentialSecrets(credentialsDir: string): KnownSecret[] {
  const out: KnownSecret[] = [];
  let names: string[];
  try {
    names = readdirSync(credentialsDir);
  } catch {
    return out;
  }
  for (const name of names) {
    const file = join(credentialsDir, name);
    try {
      if (!statSync(file).isFile()) continue;
      const text = readFileSync(file, 'utf8');
      try {
        const parsed: unknown = JSON.parse(text);
        if (parsed && typeof parsed === 'object') {
          stringLeaves(parsed, `credentials/${name}`, out);
          continue;
        }
      } catch {
        // Not JSON: the whole file is the secret (gateway-token).
      }
      out.push({ name: `credentials/${name}`, value: text.trim() });
    } catch {}
  }
  return out.filter((secret) => !/^(id|provider|type|kind)$/i.test(secret.name.split('.').pop() ?? '') && !/\.id$/.test(secret.name));
}

export interface SecretSources {
  /** `<state>/credentials`. */
  credentialsDir: string;
  /** The gateway's environment (provider keys, CLAW_GATEWAY_TOKEN, bot tokens). */
  env: NodeJS.ProcessEnv;
  /** Env names the config points at for keys (`apiKeyEnv`), whatever they are called. */
  extraEnvNames?: readonly string[];
  /** Secrets the caller knows directly: the gateway token, webhook tokens, channel bot tokens. */
  values?: readonly KnownSecret[];
}

/** The secrets claw can find on its own: credentials files, credential-looking env vars, and what the caller passes. */
export function collectKnownSecrets(sources: SecretSources): KnownSecret[] {
  const fromEnv = Object.entries(sources.env)
    .filter((entry): entry is [string, string] => entry[1] !== undefined && (SECRET_ENV.test(entry[0]) || (sources.extraEnvNames ?? []).includes(entry[0])))
    .map(([name, value]) => ({ name, value }));
  return [...(sources.values ?? []), ...credentialSecrets(sources.credentialsDir), ...fromEnv];
}
