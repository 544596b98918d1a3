import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeTelegram, type FakeChat, type FakeTelegram, type FakeUser } from '../support/fake-telegram.js';
import { startTestGateway, type TestCoreOptions, type TestGateway } from '../support/gateway-harness.js';
import { telegramVisibleText } from '../support/strict-telegram.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

export const TOKEN = '123456:TEST_token_for_the_fake_server_only';
export const alice: FakeUser = { id: 4001, first_name: 'Alice', username: 'alice' };
export const bob: FakeUser = { id: 4002, first_name: 'Bob', username: 'bob' };
export const aliceChat: FakeChat = { id: 4001, type: 'private' };
export const bobChat: FakeChat = { id: 4002, type: 'private' };

export interface TelegramRig {
  telegram: FakeTelegram;
  gateway: TestGateway;
  state: TempState;
  stop(): Promise<void>;
}

/** The telegram account config pointing at a fake server, with the token in a 0600 file of the state dir. */
export function telegramConfig(state: TempState, telegram: FakeTelegram, account: Record<string, unknown> = {}): Record<string, unknown> {
  const tokenFile = join(state.dir, 'bot.token');
  writeFileSync(tokenFile, `${TOKEN}\n`, { mode: 0o600 });
  return { channels: { telegram: { accounts: { default: { tokenFile, apiRoot: telegram.apiRoot, pollTimeoutSeconds: 2, ...account } } } } };
}

/** A real gateway (in process) with its Telegram channel pointed at a fresh fake Bot API server. */
export async function startTelegramRig(
  options: { account?: Record<string, unknown>; config?: Record<string, unknown>; core?: TestCoreOptions; telegram?: FakeTelegram; state?: TempState } = {},
): Promise<TelegramRig> {
  const telegram = options.telegram ?? (await startFakeTelegram({ token: TOKEN }));
  const state = options.state ?? makeTempState();
  const config = { ...telegramConfig(state, telegram, options.account), ...options.config };
  const gateway = await startTestGateway({ state, config, core: { channels: { timings: { reconnectFirstDelayMs: 50, lockRetryMs: 50 } }, ...options.core } });
  return {
    telegram,
    gateway,
    state,
    async stop() {
      await gateway.stop();
      if (!options.telegram) await telegram.close();
      if (!options.state) state.cleanup();
    },
  };
}

/** The text of every sendMessage to one chat, in order, as the reader sees it (HTML parsed as Telegram parses it). */
export function sentTo(telegram: FakeTelegram, chatId: number): string[] {
  return telegram
    .callsOf('sendMessage')
    .filter((c) => Number(c.params.chat_id) === chatId)
    .map((c) => telegramVisibleText(c.params));
}
