import { createInterface } from 'node:readline';
import { saveTelegramToken, telegramCredentialFile } from '../../channels/index.js';
import { loadConfig, readRawConfig, setAtPath, statePaths, writeRawConfig, type StatePaths } from '../../config/index.js';
import type { ChannelStatusInfo } from '../../protocol/index.js';
import type { CommandRun } from '../command.js';
import { printJson } from '../format.js';

const usage = `Usage:
  claw channels list [--json]                    configured channel accounts and where their tokens come from
  claw channels status [--json]                  each account's state in the running gateway (running, error with the reason), messages handled and updates ignored by reason
  claw channels login telegram [--account ID]    store a bot token in credentials/ (0600); reads it from stdin when piped`;

function fail(text: string, code = 2): number {
  process.stderr.write(`claw channels: ${text}\n`);
  return code;
}

/** Where an account's token comes from, never the token itself. */
function tokenSource(account: { tokenFile?: string | undefined; tokenEnv?: string | undefined }, id: string, paths: StatePaths): string {
  if (account.tokenFile) return `tokenFile ${account.tokenFile}`;
  if (account.tokenEnv) return `env ${account.tokenEnv}`;
  return `credentials ${telegramCredentialFile(paths, id)}`;
}

async function gatewayStatus(paths: StatePaths): Promise<ChannelStatusInfo[] | undefined> {
  const { connectLocal, findLocalGateway } = await import('../../client/index.js');
  if (!findLocalGateway(paths)) return undefined;
  const client = await connectLocal(paths);
  try {
    return (await client.request('channels.status', {})).channels;
  } finally {
    client.close();
  }
}

/** A token typed at a terminal is not echoed; a piped one is read whole. */
async function readToken(): Promise<string> {
  if (!process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8').trim();
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  const prompt = 'Telegram bot token (from @BotFather; not shown): ';
  const muted = rl as unknown as { _writeToOutput(text: string): void };
  const write = muted._writeToOutput.bind(rl);
  muted._writeToOutput = (text: string) => write(text.startsWith(prompt) ? prompt : '');
  try {
    return await new Promise<string>((resolve) => rl.question(prompt, resolve));
  } finally {
    rl.close();
    process.stdout.write('\n');
  }
}

export const run: CommandRun = async ({ args, flags }) => {
  const [action = 'list', channel] = args;
  const paths = statePaths();
  switch (action) {
    case 'list': {
      const accounts = Object.entries(loadConfig(paths.config).channels.telegram.accounts).map(([id, account]) => ({
        channel: 'telegram',
        accountId: id,
        enabled: account.enabled,
        token: tokenSource(account, id, paths),
        dmPolicy: account.dmPolicy,
        groupPolicy: account.groupPolicy,
        groups: Object.keys(account.groups).length,
      }));
      if (flags.json) printJson({ accounts });
      else if (accounts.length === 0) process.stdout.write('No channel configured. Add a Telegram bot with `claw channels login telegram`.\n');
      else
        for (const a of accounts)
          process.stdout.write(
            `${a.channel}:${a.accountId}  ${a.enabled ? 'enabled' : 'disabled'}  dm ${a.dmPolicy}, groups ${a.groupPolicy} (${a.groups} listed)  token from ${a.token}\n`,
          );
      return 0;
    }
    case 'status': {
      const channels = await gatewayStatus(paths);
      if (!channels) return fail('no gateway is running for this state dir; start one with `claw gateway start`', 1);
      if (flags.json) printJson({ channels });
      else if (channels.length === 0) process.stdout.write('No channel configured.\n');
      else
        for (const s of channels) {
          process.stdout.write(`${s.channel}:${s.accountId}  ${s.state}${s.identity ? `  ${s.identity}` : ''}${s.reason ? `  — ${s.reason}` : ''}\n`);
          process.stdout.write(
            s.owner
              ? `  owner ${s.owner} (answers approvals from the phone)\n`
              : `  no owner: approvals are answered only in the TUI (set channels.${s.channel}.accounts.${s.accountId}.owner)\n`,
          );
          const ignored = Object.entries(s.ignored ?? {}).sort((a, b) => b[1] - a[1]);
          if (s.handled !== undefined || ignored.length > 0)
            process.stdout.write(
              `  handled ${s.handled ?? 0}; ignored ${ignored.reduce((n, [, count]) => n + count, 0)}${ignored.length > 0 ? ` (${ignored.map(([why, count]) => `${why}: ${count}`).join(', ')})` : ''}\n`,
            );
        }
      return channels.some((s) => s.state === 'error') ? 1 : 0;
    }
    case 'login': {
      if (channel !== 'telegram') return fail(`login works for: telegram (got "${channel ?? ''}")\n${usage}`);
      const accountId = typeof flags.account === 'string' && flags.account ? flags.account : 'default';
      if (!/^[a-z0-9][a-z0-9_-]*$/i.test(accountId)) return fail(`--account "${accountId}" must be letters, digits, "-" or "_"`);
      let file: string;
      try {
        file = saveTelegramToken(paths, accountId, await readToken());
      } catch (error) {
        return fail((error as Error).message);
      }
      const raw = readRawConfig(paths.config);
      const key = `channels.telegram.accounts.${accountId}`;
      const existing = (raw.channels as { telegram?: { accounts?: Record<string, unknown> } } | undefined)?.telegram?.accounts?.[accountId];
      if (!existing) writeRawConfig(paths.config, setAtPath(raw, key, {}));
      // A running gateway starts an account as soon as claw.json names it; a new token for a known account is read at its next start.
      const next = existing ? 'Restart the gateway (`claw gateway restart`) to connect with the new token.' : 'A running gateway connects it within seconds.';
      process.stdout.write(`Saved the token for telegram:${accountId} in ${file} (0600). ${next}\n`);
      return 0;
    }
    default:
      return fail(`unknown action "${action}"\n${usage}`);
  }
};
