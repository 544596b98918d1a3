import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { readRawConfig, writeRawConfig } from '../../source/config/index.js';
import { DISCORD_TOKEN } from '../channels/discord-harness.js';
import { alice, aliceChat, telegramConfig, TOKEN } from '../channels/telegram-harness.js';
import { CLI_ENTRY, runCli } from '../support/cli-process.js';
import { startFakeTelegram } from '../support/fake-telegram.js';
import { startGatewayChild, type GatewayChild } from '../support/gateway-child.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups.length = 0;
});

function fresh(): TempState {
  const state = makeTempState();
  cleanups.push(() => state.cleanup());
  return state;
}

function login(state: TempState, input: string, account = 'work') {
  return spawnSync(process.execPath, [CLI_ENTRY, 'channels', 'login', 'telegram', '--account', account], { env: state.env, input, encoding: 'utf8' });
}

describe('claw channels and claw pairing', () => {
  it('login stores a checked token 0600 and adds the account; list and config get never show it', async () => {
    const state = fresh();
    const bad = login(state, 'not-a-token\n');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/does not look like a Telegram bot token.*@BotFather/);
    const good = login(state, `${TOKEN}\n`);
    expect(good.status).toBe(0);
    const file = `${state.dir}/credentials/telegram-work.token`;
    expect(readFileSync(file, 'utf8').trim()).toBe(TOKEN);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readRawConfig(state.paths.config)).toMatchObject({ channels: { telegram: { accounts: { work: {} } } } });
    const list = await runCli(['channels', 'list'], state.env);
    expect(list.stdout).toContain('telegram:work  enabled  dm pairing');
    expect(list.stdout).toContain('telegram-work.token');
    const get = await runCli(['config', 'get', 'channels'], state.env);
    expect(get.code).toBe(0);
    for (const output of [list.stdout, list.stderr, get.stdout, get.stderr]) expect(output).not.toContain(TOKEN.split(':')[1]);
  });

  it('login works for every channel with a credential: a Discord token is checked, stored 0600 and listed by where it comes from', async () => {
    const state = fresh();
    const run = (input: string) =>
      spawnSync(process.execPath, [CLI_ENTRY, 'channels', 'login', 'discord', '--account', 'home'], { env: state.env, input, encoding: 'utf8' });
    const bad = run('123456:not-discord\n');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/does not look like a Discord bot token.*Developer Portal/);
    const good = run(`Bot ${DISCORD_TOKEN}\n`);
    expect(good.status).toBe(0);
    expect(good.stdout).toContain('Saved the bot token for discord:home');
    const file = `${state.dir}/credentials/discord-home.token`;
    expect(readFileSync(file, 'utf8').trim()).toBe(DISCORD_TOKEN);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const list = await runCli(['channels', 'list'], state.env);
    expect(list.stdout).toContain('discord:home  enabled  dm pairing');
    expect(list.stdout).toContain('discord-home.token');
    expect(list.stdout).not.toContain(DISCORD_TOKEN);
    const unknown = spawnSync(process.execPath, [CLI_ENTRY, 'channels', 'login', 'irc'], { env: state.env, input: 'x\n', encoding: 'utf8' });
    expect(unknown.stderr).toContain('login works for: telegram, discord');
  });

  it('status, pairing list and approve work against a running gateway', async () => {
    const state = fresh();
    const telegram = await startFakeTelegram({ token: TOKEN });
    cleanups.push(() => telegram.close());
    writeRawConfig(state.paths.config, telegramConfig(state, telegram));
    const gateway: GatewayChild = await startGatewayChild(state, { CLAW_TEST_RUNNER: 'echo' });
    cleanups.push(() => gateway.stop());
    await expect
      .poll(async () => (await runCli(['channels', 'status'], state.env)).stdout, { timeout: 10_000, interval: 200 })
      .toContain('telegram:default  running  @claw_test_bot');
    telegram.pushMessage(aliceChat, alice, 'let me in');
    const asked = await telegram.waitFor((c) => c.method === 'sendMessage');
    const code = /code is ([A-Z0-9]{8})/.exec(String(asked.params.text))![1]!;
    const list = await runCli(['pairing', 'list'], state.env);
    expect(list.stdout).toMatch(new RegExp(`^${code}  telegram:default  @alice \\(4001\\)  expires in (59|60) min`, 'm'));
    const wrong = await runCli(['pairing', 'approve', 'ZZZZ2222'], state.env);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(`pending: ${code}`);
    const approve = await runCli(['pairing', 'approve', code, '--owner'], state.env);
    expect(approve.stdout).toBe('Approved @alice as the owner; they were told.\n');
    const status = await runCli(['channels', 'status'], state.env);
    expect(status.stdout).toContain('  owner 4001 (answers approvals from the phone)');
    telegram.pushMessage(aliceChat, alice, 'thanks');
    await telegram.waitFor((c) => c.method === 'sendMessage' && c.params.text === 'echo: thanks', 10_000);
  }, 60_000);
});
