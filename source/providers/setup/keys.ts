import type { SetupCandidate } from '../../protocol/index.js';
import { readCredentialProfiles } from '../credentials.js';

/**
 * The key setup uses for a candidate: the one just typed, else the one it was
 * detected with (environment or credentials file). Read where it is used, so
 * a detected key never travels over the wire.
 */
export function candidateKey(
  candidate: Pick<SetupCandidate, 'provider' | 'keyEnv' | 'keyFound'>,
  typed: string | undefined,
  env: NodeJS.ProcessEnv,
  credentialsDir: string,
): string | undefined {
  if (typed?.trim()) return typed.trim();
  if (candidate.keyEnv && env[candidate.keyEnv]?.trim()) return env[candidate.keyEnv]!.trim();
  try {
    return readCredentialProfiles(credentialsDir, candidate.provider)[0]?.apiKey;
  } catch {
    return undefined;
  }
}
