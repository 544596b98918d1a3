import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync, type StatePaths } from '../config/index.js';
import type { ChannelCredential } from './adapter.js';

/** Where `claw channels login <channel>` keeps an account's secret (0600). */
export function channelCredentialFile(paths: StatePaths, channel: string, accountId: string): string {
  return join(paths.credentials, `${channel}-${accountId}.token`);
}

export function saveChannelToken(paths: StatePaths, channel: string, credential: ChannelCredential, accountId: string, token: string): string {
  const file = channelCredentialFile(paths, channel, accountId);
  mkdirSync(paths.credentials, { recursive: true, mode: 0o700 });
  writeFileAtomicSync(file, `${credential.check(token)}\n`, 0o600);
  return file;
}

/** Where a secret may come from in an account's config. */
export interface TokenSources {
  tokenFile?: string | undefined;
  tokenEnv?: string | undefined;
}

/** Where an account's token comes from, never the token itself. */
export function tokenSource(account: TokenSources, channel: string, accountId: string, paths: StatePaths): string {
  if (account.tokenFile) return `tokenFile ${account.tokenFile}`;
  if (account.tokenEnv) return `env ${account.tokenEnv}`;
  return `credentials ${channelCredentialFile(paths, channel, accountId)}`;
}

/**
 * The secret of one account: `tokenFile`, then `tokenEnv`, then the stored
 * credential. The error names every place looked, never a value.
 */
export function readChannelToken(
  channel: string,
  credential: ChannelCredential,
  account: TokenSources,
  accountId: string,
  paths: StatePaths,
  env: NodeJS.ProcessEnv,
): string {
  const key = `channels.${channel}.accounts.${accountId}`;
  if (account.tokenFile) {
    try {
      return credential.check(readFileSync(account.tokenFile, 'utf8'));
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ? `cannot read ${account.tokenFile}` : (error as Error).message;
      throw new Error(`${key}.tokenFile: ${reason}`);
    }
  }
  if (account.tokenEnv) {
    const value = env[account.tokenEnv];
    if (!value) throw new Error(`${key}.tokenEnv: ${account.tokenEnv} is not set in the gateway's environment`);
    return credential.check(value);
  }
  const file = channelCredentialFile(paths, channel, accountId);
  try {
    return credential.check(readFileSync(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(
        `no ${credential.label} for ${channel} account "${accountId}": run \`claw channels login ${channel} --account ${accountId}\`, or set tokenFile or tokenEnv in ${key}`,
      );
    }
    throw error;
  }
}

/** When the account's secret last changed where the gateway reads it (a re-login restarts the account). */
export function tokenVersion(account: TokenSources, channel: string, accountId: string, paths: StatePaths): string {
  const file = account.tokenFile ?? (account.tokenEnv ? undefined : channelCredentialFile(paths, channel, accountId));
  if (!file) return '';
  try {
    const stat = statSync(file);
    return `${stat.mtimeMs}:${stat.size}`;
  } catch {
    return 'missing';
  }
}

/** Hides a token inside text that may reach a log or a client (an error can carry the request URL). */
export function redactToken(text: string, token: string): string {
  return token ? text.split(token).join('<bot-token>') : text;
}
