import { createInterface } from 'node:readline';
import { CHANNEL_ADAPTERS, saveChannelToken, tokenSource, type AnyChannelAdapter, type ChannelCredential } from '../../channels/index.js';
import { loadConfig, readRawConfig, setAtPath, statePaths, writeRawConfig, type StatePaths } from '../../config/index.js';
import type { ChannelStatusInfo } from '../../protocol/index.js';
import type { CommandRun } from '../command.js';
import { printJson } from '../format.js';

const usage = `Usage:
  claw channels list [--json]                    configured channel accounts and where their tokens come from
  claw channels status [--json]                  each account's state in the running gateway (running, error with the reason), messages handled and updates ignored by reason
  claw channels login CHANNEL [--account ID]     store a bot token in credentials/ (0600); reads it from stdin when piped (${loginChannels().join(', ')})`;

function loginChannels(): string[] {
  return CHANNEL_ADAPTERS.filter((adapter) => adapter.credential).map((adapter) => adapter.id);
}

function fail(text: string, code = 2): number {
  process.stderr.write(`claw channels: ${text}\n`);
  return code;
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
async function readToken(credential: ChannelCredential): Promise<string> {
  if (!process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8').trim();
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  const { prompt } = credential;
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
      const accounts = listAccounts(paths);
      if (flags.json) printJson({ accounts });
      else if (accounts.length === 0)
        process.stdout.write(`No channel configured. Add a bot with \`claw channels login CHANNEL\` (${loginChannels().join(', ')}).\n`);
      else
        for (const a of accounts)
          process.stdout.write(
            `${a.channel}:${a.accountId}  ${a.enabled ? 'enabled' : 'disabled'}${a.dmPolicy ? `  dm ${a.dmPolicy}` : ''}${a.groups !== undefined ? `, ${a.groups} group(s) listed` : ''}${a.token ? `  token from ${a.token}` : ''}${a.error ? `  — ${a.error}` : ''}\n`,
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
      const adapter = CHANNEL_ADAPTERS.find((a) => a.id === channel && a.credential);
      if (!adapter?.credential) return fail(`login works for: ${loginChannels().join(', ')} (got "${channel ?? ''}")\n${usage}`);
      const accountId = typeof flags.account === 'string' && flags.account ? flags.account : 'default';
      if (!/^[a-z0-9][a-z0-9_-]*$/i.test(accountId)) return fail(`--account "${accountId}" must be letters, digits, "-" or "_"`);
      let file: string;
      try {
        file = saveChannelToken(paths, adapter.id, adapter.credential, accountId, await readToken(adapter.credential));
      } catch (error) {
        return fail((error as Error).message);
      }
      const raw = readRawConfig(paths.config);
      const key = `channels.${adapter.id}.accounts.${accountId}`;
      const existing = (raw.channels as Record<string, { accounts?: Record<string, unknown> }> | undefined)?.[adapter.id]?.accounts?.[accountId];
      if (!existing) writeRawConfig(paths.config, setAtPath(raw, key, {}));
      // A running gateway starts an account as soon as claw.json names it, and restarts one whose stored token changed.
      process.stdout.write(
        `Saved the ${adapter.credential.label} for ${adapter.id}:${accountId} in ${file} (0600). A running gateway connects with it within seconds.\n`,
      );
      return 0;
    }
    default:
      return fail(`unknown action "${action}"\n${usage}`);
  }
};

interface AccountLine {
  channel: string;
  accountId: string;
  enabled: boolean;
  token?: string;
  dmPolicy?: string;
  groups?: number;
  error?: string;
}

/** Every configured account of every registered channel, as its adapter reads it. */
function listAccounts(paths: StatePaths): AccountLine[] {
  const config = loadConfig(paths.config);
  return CHANNEL_ADAPTERS.flatMap((adapter: AnyChannelAdapter) =>
    Object.entries(adapter.accounts(config)).map(([accountId, raw]): AccountLine => {
      try {
        const account = adapter.parseAccount(raw, accountId);
        return {
          channel: adapter.id,
          accountId,
          enabled: account.enabled,
          ...(adapter.credential ? { token: tokenSource(account, adapter.id, accountId, paths) } : {}),
          ...(account.dmPolicy ? { dmPolicy: account.dmPolicy } : {}),
          ...(account.groups ? { groups: Object.keys(account.groups).length } : {}),
        };
      } catch (error) {
        return { channel: adapter.id, accountId, enabled: false, error: `channels.${adapter.id}.accounts.${accountId}: ${(error as Error).message}` };
      }
    }),
  );
}
