import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readRawConfig, validateConfig, writeRawConfig } from '../../source/config/index.js';
import { echoRunner } from '../../source/queue/index.js';
import { startFakeTelegram, type FakeTelegram } from '../support/fake-telegram.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { alice, aliceChat, bob, bobChat, sentTo, TOKEN } from './telegram-harness.js';

const OTHER_TOKEN = '654321:OTHER_token_for_the_second_fake_server';

let gateway: TestGateway | undefined;
const servers: FakeTelegram[] = [];

afterEach(async () => {
  await gateway?.stop();
  for (const server of servers.splice(0)) await server.close();
  gateway = undefined;
});

function account(dir: string, telegram: FakeTelegram, token: string, name: string): Record<string, unknown> {
  const tokenFile = join(dir, `${name}.token`);
  writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
  return { tokenFile, apiRoot: telegram.apiRoot, pollTimeoutSeconds: 1, dmPolicy: 'allowlist', allowFrom: [String(alice.id)] };
}

/** Writes one telegram account into claw.json (or removes it), as `claw config set` would. */
function setAccount(value: Record<string, unknown> | undefined): void {
  const raw = readRawConfig(gateway!.state.paths.config);
  raw.channels = value ? { telegram: { accounts: { default: value } } } : { telegram: { accounts: {} } };
  writeRawConfig(gateway!.state.paths.config, raw);
}

const states = (): string[] => gateway!.core.channels.status().map((s) => `${s.channel}:${s.accountId} ${s.state}`);

describe('channel accounts follow claw.json while the gateway runs', { timeout: 60_000 }, () => {
  it('an account added starts polling with no restart, a re-tokened one moves, a removed one stops', async () => {
    const first = await startFakeTelegram({ token: TOKEN });
    const second = await startFakeTelegram({ token: OTHER_TOKEN });
    servers.push(first, second);
    gateway = await startTestGateway({ core: { runner: echoRunner, channels: { timings: { reconnectFirstDelayMs: 50, lockRetryMs: 50 } } } });
    expect(states()).toEqual([]);

    setAccount(account(gateway.state.dir, first, TOKEN, 'first'));
    await expect.poll(() => first.callsOf('getUpdates').length, { timeout: 2_000, interval: 25 }).toBeGreaterThan(0);
    first.pushMessage(aliceChat, alice, 'hello');
    await expect.poll(() => sentTo(first, alice.id), { timeout: 10_000 }).toEqual(['echo: hello']);

    setAccount(account(gateway.state.dir, second, OTHER_TOKEN, 'second'));
    await expect.poll(() => second.callsOf('getUpdates').length, { timeout: 2_000, interval: 25 }).toBeGreaterThan(0);
    const firstPolls = first.callsOf('getUpdates').length;
    // A new bot numbers its messages from 1 again; the first one here would share "hello"'s dedupe key.
    second.pushMessage(bobChat, bob, 'not allowed');
    second.pushMessage(aliceChat, alice, 'moved');
    await expect.poll(() => sentTo(second, alice.id), { timeout: 10_000 }).toEqual(['echo: moved']);
    // The old bot is no longer polled: at most the poll that was open when it was stopped ends.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(first.callsOf('getUpdates').length).toBeLessThanOrEqual(firstPolls + 1);
    expect(states()).toEqual(['telegram:default running']);

    setAccount(undefined);
    await expect.poll(states, { timeout: 2_000, interval: 25 }).toEqual([]);
    const secondPolls = second.callsOf('getUpdates').length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(second.callsOf('getUpdates').length).toBeLessThanOrEqual(secondPolls + 1);
  });

  it('an account whose token cannot be read shows why, and starts once the config names a token', async () => {
    const telegram = await startFakeTelegram({ token: TOKEN });
    servers.push(telegram);
    gateway = await startTestGateway({ core: { runner: echoRunner } });
    setAccount({ tokenFile: join(gateway.state.dir, 'missing.token'), apiRoot: telegram.apiRoot });
    await expect.poll(() => gateway!.core.channels.status()[0]?.reason ?? '', { timeout: 2_000, interval: 25 }).toMatch(/tokenFile/);
    expect(states()).toEqual(['telegram:default error']);

    setAccount(account(gateway.state.dir, telegram, TOKEN, 'fixed'));
    await expect.poll(() => telegram.callsOf('getUpdates').length, { timeout: 2_000, interval: 25 }).toBeGreaterThan(0);
  });

  it("claw.json takes any channel's accounts for its adapter to check, and still refuses a misspelt section", () => {
    const config = validateConfig(
      { channels: { matrix: { accounts: { home: { homeserver: 'https://example.org', allowFrom: ['@ada:example.org'] } } } } },
      'test',
    );
    expect(config.channels.matrix?.accounts.home).toEqual({ homeserver: 'https://example.org', allowFrom: ['@ada:example.org'] });
    expect(config.channels.telegram.accounts).toEqual({});
    expect(() => validateConfig({ channels: { matrix: { acounts: {} } } }, 'test')).toThrow(/acounts/);
    expect(() => validateConfig({ channels: { matrix: { accounts: { 'no spaces': {} } } } }, 'test')).toThrow(
      /channels.matrix.accounts.no spaces: Invalid key/,
    );
  });
});
