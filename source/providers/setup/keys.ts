import type { SetupCandidate } from '../../protocol/index.js';
import { readCredentialProfiles } from '../credentials.js';
import { findPreset, providerPresets } from './presets.js';

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

/**
 * The key setup uses for a candidate: the one just typed, else one already on
 * this machine. A key found here only ever goes to the server it belongs to
 * (an environment key to its provider's own address, a saved key to the
 * provider it was saved for), so a candidate sent over the wire cannot point
 * the gateway's secrets at another host.
 */
export function candidateKey(
  candidate: Pick<SetupCandidate, 'provider' | 'baseUrl' | 'keyEnv'>,
  typed: string | undefined,
  env: NodeJS.ProcessEnv,
  credentialsDir: string,
): string | undefined {
  if (typed?.trim()) return typed.trim();
  const envPreset = providerPresets.find((p) => p.keyEnv !== undefined && p.keyEnv === candidate.keyEnv);
  const envKey = envPreset?.keyEnv ? env[envPreset.keyEnv]?.trim() : undefined;
  if (envPreset && envKey && sameOrigin(envPreset.baseUrl, candidate.baseUrl)) return envKey;
  const preset = findPreset(candidate.provider);
  if (!preset || !sameOrigin(preset.baseUrl, candidate.baseUrl)) return undefined;
  try {
    return readCredentialProfiles(credentialsDir, candidate.provider)[0]?.apiKey;
  } catch {
    return undefined;
  }
}
