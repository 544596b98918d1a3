import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { lazySchema } from '../protocol/index.js';
import { parseJsonc } from '../config/index.js';
import type { ProviderSettings } from './catalogue.js';
import { ProviderError } from './errors.js';
import type { AuthProfile } from './types.js';

/**
 * `<state>/credentials/<provider>.json`, mode 0600:
 * `{"apiKey": "…"}` or `{"profiles": [{"id": "work", "apiKey": "…"}, …]}`.
 */
const credentialsFile = lazySchema(() =>
  z.union([
    z.strictObject({ apiKey: z.string().min(1) }),
    z.strictObject({ profiles: z.array(z.strictObject({ id: z.string().regex(/^[\w.-]+$/), apiKey: z.string().min(1) })).min(1) }),
  ]),
);

export function credentialsPath(credentialsDir: string, provider: string): string {
  return join(credentialsDir, `${provider}.json`);
}

/** Profiles from the credentials file, or [] when there is none. */
export function readCredentialProfiles(credentialsDir: string, provider: string): AuthProfile[] {
  const file = credentialsPath(credentialsDir, provider);
  const stats = statSync(file, { throwIfNoEntry: false });
  if (!stats) return [];
  const { mode } = stats;
  // Like ssh with private keys: a key file others can read is refused, not silently used.
  if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
    throw new ProviderError('not_configured', `${file} is readable by other users; run \`chmod 600 ${file}\` and try again.`);
  }
  let parsed: z.infer<typeof credentialsFile>;
  try {
    parsed = credentialsFile.parse(parseJsonc(readFileSync(file, 'utf8')));
  } catch (error) {
    const detail = error instanceof z.ZodError ? 'expected {"apiKey": "…"} or {"profiles": [{"id": "…", "apiKey": "…"}]}' : String(error);
    throw new ProviderError('not_configured', `${file} is not a valid credentials file: ${detail}.`);
  }
  if ('apiKey' in parsed) return [{ id: 'file:default', apiKey: parsed.apiKey }];
  return parsed.profiles.map((profile) => ({ id: `file:${profile.id}`, apiKey: profile.apiKey }));
}

/**
 * Every credential for a provider, in rotation order: the environment key,
 * then the credentials file's profiles. A provider with no key variable
 * (local servers) gets one keyless profile.
 */
export function authProfilesFor(settings: ProviderSettings, credentialsDir: string, env: NodeJS.ProcessEnv): AuthProfile[] {
  const profiles: AuthProfile[] = [];
  const envKey = settings.apiKeyEnv ? env[settings.apiKeyEnv]?.trim() : undefined;
  if (settings.apiKeyEnv && envKey) profiles.push({ id: `env:${settings.apiKeyEnv}`, apiKey: envKey });
  profiles.push(...readCredentialProfiles(credentialsDir, settings.name));
  if (profiles.length === 0 && !settings.apiKeyEnv) profiles.push({ id: 'none', apiKey: undefined });
  return profiles;
}

/**
 * Where a profile's key comes from, as the operator would fix it:
 * `$OPENAI_API_KEY in the gateway's environment`, `profile "work" in
 * credentials/openai.json`. Undefined for a keyless profile.
 */
export function describeProfile(profileId: string, provider: string): string | undefined {
  const [source, name] = [profileId.slice(0, profileId.indexOf(':')), profileId.slice(profileId.indexOf(':') + 1)];
  if (source === 'env') return `$${name} in the gateway's environment`;
  if (source === 'file') return name === 'default' ? `the apiKey in credentials/${provider}.json` : `profile "${name}" in credentials/${provider}.json`;
  return undefined;
}

export function missingKeyMessage(settings: ProviderSettings, credentialsDir: string): string {
  return `No API key for provider "${settings.name}". Set ${settings.apiKeyEnv ?? 'the key'} in the gateway's environment, or write {"apiKey": "…"} to ${credentialsPath(credentialsDir, settings.name)} (chmod 600).`;
}
