import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeRawConfig } from '../../source/config/index.js';
import { startFakeTelegram, type FakeChat } from '../support/fake-telegram.js';
import { startGatewayChild, type GatewayChild } from '../support/gateway-child.js';
import { makeTempState } from '../support/temp-state.js';
import { alice, telegramConfig, TOKEN } from './telegram-harness.js';

const forum: FakeChat = { id: -100600, type: 'supergroup', title: 'Home', is_forum: true };

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups.length = 0;
});

describe('a forum-topic reply after kill -9', () => {
  it('a message accepted in topic 7 before the kill is answered in topic 7 after the restart, once', async () => {
    // Replies are taken only 1 s after they are sent: the one in flight at the kill never arrives.
    const telegram = await startFakeTelegram({ token: TOKEN, sendDelayMs: 1000 });
    const state = makeTempState();
    cleanups.push(
      () => state.cleanup(),
      () => telegram.close(),
    );
    writeRawConfig(state.paths.config, {
      ...telegramConfig(state, telegram, { groups: { [String(forum.id)]: { requireMention: false } } }),
      queue: { mode: 'followup', debounceMs: 0 },
    });
    const first: GatewayChild = await startGatewayChild(state, { CLAW_TEST_RUNNER: 'echo' });
    cleanups.push(() => (first.child.exitCode === null ? first.kill9() : undefined));
    telegram.pushMessage(forum, alice, 'lights off at 11?', { threadId: 7 });
    const journal = join(state.dir, 'queue', 'inbound.jsonl');
    await expect.poll(() => existsSync(journal) && readFileSync(journal, 'utf8').includes('lights off at 11?'), { timeout: 10_000 }).toBe(true);
    await first.kill9();
    expect(telegram.callsOf('sendMessage').filter((c) => Number(c.params.chat_id) === forum.id)).toEqual([]);

    const second = await startGatewayChild(state, { CLAW_TEST_RUNNER: 'echo' });
    cleanups.push(() => second.stop());
    const reply = await telegram.waitFor((c) => c.method === 'sendMessage' && c.params.text === 'echo: lights off at 11?', 20_000);
    expect(Number(reply.params.chat_id)).toBe(forum.id);
    expect(Number(reply.params.message_thread_id)).toBe(7);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(telegram.callsOf('sendMessage').filter((c) => c.params.text === 'echo: lights off at 11?')).toHaveLength(1);
  });
});
