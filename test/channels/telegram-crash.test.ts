import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeRawConfig } from '../../source/config/index.js';
import { startFakeTelegram } from '../support/fake-telegram.js';
import { CLI_ENTRY, startGatewayChild } from '../support/gateway-child.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { alice, aliceChat, sentTo, telegramConfig, TOKEN } from './telegram-harness.js';

/** Messages whose reply the transcripts on disk mark as delivered. */
function deliveryMarks(state: TempState): number {
  const dir = state.paths.sessionsDir('main');
  const ids = new Set<string>();
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.jsonl'))) {
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
      if (!line.includes('"reply_delivered"')) continue;
      const entry = JSON.parse(line) as { customType?: string; data?: { messageId?: string } };
      if (entry.customType === 'reply_delivered' && entry.data?.messageId) ids.add(entry.data.messageId);
    }
  }
  return ids.size;
}

/** Chains run side by side (own state dir, own fake Telegram), so 21 kills fit in the time of 7 gateway starts. */
const CHAINS = 3;
const KILLS_PER_CHAIN = 7;

/**
 * Each round queues three messages, starts a gateway and kills it with
 * SIGKILL a few ms after Telegram handed over the batch: before, during or
 * just after the journal write, and before the offset commit that follows.
 * Replies a killed gateway had in flight never reach the fake Telegram, so a
 * reply the transcript holds without a delivery mark must be sent by a later
 * start. A last gateway then runs until every reply is out and is killed too;
 * the start after it must send nothing more: every message has exactly one reply.
 */
async function killChain(chain: number): Promise<{ texts: string[]; replies: string[]; conflicts: number }> {
  // No reply a gateway about to be killed sends ever completes: the restart must send it. A send
  // that Telegram took just before the kill, with its delivery mark not yet on disk, would be sent
  // again (the Bot API has no idempotency key: claw chooses a visible duplicate over a loss), so
  // this test keeps the kills out of that one-fsync window and checks the marks after it instead.
  const telegram = await startFakeTelegram({ token: TOKEN, sendDelayMs: 60_000 });
  const state = makeTempState();
  try {
    writeRawConfig(state.paths.config, {
      ...telegramConfig(state, telegram, { dmPolicy: 'allowlist', allowFrom: [String(alice.id)] }),
      // One turn per message, so every update has its own reply to count.
      queue: { mode: 'followup', debounceMs: 0 },
    });
    const texts: string[] = [];
    for (let round = 0; round < KILLS_PER_CHAIN; round++) {
      for (let i = 0; i < 3; i++) {
        const text = `c${chain}-r${round}-m${i}`;
        texts.push(text);
        telegram.pushMessage(aliceChat, alice, text);
      }
      const child = spawn(process.execPath, [CLI_ENTRY, 'gateway', 'run', '--port', '0'], {
        env: { ...state.env, CLAW_TEST_RUNNER: 'echo' },
        stdio: 'ignore',
      });
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      const delay = round % 3 === 0 ? 0 : Math.floor(Math.random() * 12);
      await new Promise<void>((resolve) => {
        const stop = telegram.onUpdatesServed(() => {
          stop();
          setTimeout(resolve, delay);
        });
      });
      child.kill('SIGKILL');
      await exited;
    }
    telegram.setSendDelay(0);
    const gateway = await startGatewayChild(state, { CLAW_TEST_RUNNER: 'echo' });
    try {
      await expect.poll(() => new Set(sentTo(telegram, alice.id)).size, { timeout: 60_000, interval: 100 }).toBeGreaterThanOrEqual(texts.length);
      await expect.poll(() => deliveryMarks(state), { timeout: 30_000, interval: 100 }).toBeGreaterThanOrEqual(texts.length);
    } finally {
      await gateway.kill9();
    }
    // Every reply is marked delivered on disk once sent: a start after a kill -9 sends none again.
    const after = await startGatewayChild(state, { CLAW_TEST_RUNNER: 'echo' });
    try {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      return { texts, replies: sentTo(telegram, alice.id), conflicts: telegram.conflicts };
    } finally {
      await after.stop();
    }
  } finally {
    await telegram.close();
    state.cleanup();
  }
}

describe('telegram under kill -9', () => {
  it(`answers every update exactly once across ${CHAINS * KILLS_PER_CHAIN} kills between getUpdates, the journal and the offset commit`, async () => {
    const chains = await Promise.all(Array.from({ length: CHAINS }, (_, chain) => killChain(chain)));
    for (const { texts, replies, conflicts } of chains) {
      const counts = new Map<string, number>();
      for (const reply of replies) counts.set(reply, (counts.get(reply) ?? 0) + 1);
      for (const text of texts) expect(counts.get(`echo: ${text}`), `replies to ${text}`).toBe(1);
      expect(replies).toHaveLength(texts.length);
      expect(conflicts).toBe(0);
    }
  }, 300_000);
});
