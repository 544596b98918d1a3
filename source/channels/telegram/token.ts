import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync, type StatePaths, type TelegramAccountConfig } from '../../config/index.js';

/** Where `claw channels login telegram` keeps a bot token (0600). */
export function telegramCredentialFile(paths: StatePaths, accountId: string): string {
  return join(paths.credentials, `telegram-${accountId}.token`);
}

const TOKEN_SHAPE = /^\d+:[A-Za-z0-9_-]{20,}$/;

/** Checks a token's shape before it is stored or used, so a paste error is caught at once. */
export function checkTelegramToken(token: string): string {
  const trimmed = token.trim();
  if (!TOKEN_SHAPE.test(trimmed)) {
    throw new Error('That does not look like a Telegram bot token (digits, a colon, then 20+ letters, digits, "-" or "_"). Copy it again from @BotFather.');
  }
  return trimmed;
}

export function saveTelegramToken(paths: StatePaths, accountId: string, token: string): string {
  const file = telegramCredentialFile(paths, accountId);
  mkdirSync(paths.credentials, { recursive: true, mode: 0o700 });
  writeFileAtomicSync(file, `${checkTelegramToken(token)}\n`, 0o600);
  return file;
}

/**
 * The bot token of one account: `tokenFile`, then `tokenEnv`, then the
 * stored credential. The error names every place looked, never a value.
 */
export function readTelegramToken(account: TelegramAccountConfig, accountId: string, paths: StatePaths, env: NodeJS.ProcessEnv): string {
  if (account.tokenFile) {
    try {
      return checkTelegramToken(readFileSync(account.tokenFile, 'utf8'));
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ? `cannot read ${account.tokenFile}` : (error as Error).message;
      throw new Error(`channels.telegram.accounts.${accountId}.tokenFile: ${reason}`);
    }
  }
  if (account.tokenEnv) {
    const value = env[account.tokenEnv];
    if (!value) throw new Error(`channels.telegram.accounts.${accountId}.tokenEnv: ${account.tokenEnv} is not set in the gateway's environment`);
    return checkTelegramToken(value);
  }
  const file = telegramCredentialFile(paths, accountId);
  try {
    return checkTelegramToken(readFileSync(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(
        `no bot token for Telegram account "${accountId}": run \`claw channels login telegram --account ${accountId}\`, or set tokenFile or tokenEnv in channels.telegram.accounts.${accountId}`,
      );
    }
    throw error;
  }
}

/** Hides a token inside text that may reach a log or a client (grammY errors can carry the request URL). */
export function redactToken(text: string, token: string): string {
  return token ? text.split(token).join('<bot-token>') : text;
}
