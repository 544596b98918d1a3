import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { writeRawConfig } from '../../source/config/index.js';
import { startFakeDiscord } from '../support/fake-discord.js';
import { CLI_ENTRY, startGatewayChild } from '../support/gateway-child.js';
import { makeTempState } from '../support/temp-state.js';
import { ada, botTexts, DISCORD_TOKEN, discordConfig } from './discord-harness.js';

/** Chains run side by side (own state dir, own fake Discord), so 21 kills fit in the time of 7 gateway starts. */
const CHAINS = 3;
const KILLS_PER_CHAIN = 7;

/**
 * Each round starts a gateway, writes three DMs as soon as it has connected
 * and kills it with SIGKILL a few ms later: before, during or after the
 * journal write, the catch-up cursor, the reply and its delivery mark. The
 * socket dies with the process, so a later start RESUMEs the saved session
 * (Discord replays what it missed) or, when that session is gone, reads the
 * channel's history since the last message on disk; a reply sent just before a kill and sent again
 * after it carries the same nonce, which Discord creates once. A last
 * gateway runs until every message has its reply; every message must have
 * exactly one.
 */
async function killChain(chain: number): Promise<{ texts: string[]; replies: string[] }> {
  const discord = await startFakeDiscord({ token: DISCORD_TOKEN, heartbeatIntervalMs: 1000, bucketLimit: 50, bucketWindowMs: 1000 });
  const state = makeTempState();
  try {
    writeRawConfig(state.paths.config, {
      ...discordConfig(state, discord, { dmPolicy: 'allowlist', allowFrom: [ada.id] }),
      queue: { mode: 'followup', debounceMs: 0 },
    });
    const dm = discord.dmChannel(ada);
    // Ada has written before: claw knows her DM channel (Discord lists no bot's DM channels, so a
    // first message that a crash catches before it is on disk cannot be found again).
    const texts = [`c${chain}-hello`];
    const first = await startGatewayChild(state, { CLAW_TEST_RUNNER: 'echo' });
    await expect.poll(() => discord.stats.identifies, { timeout: 20_000 }).toBe(1);
    discord.pushMessage(dm, ada, texts[0]!);
    await expect.poll(() => botTexts(discord, dm), { timeout: 20_000 }).toEqual([`echo: ${texts[0]}`]);
    await first.kill9();
    for (let round = 0; round < KILLS_PER_CHAIN; round++) {
      const connected = discord.stats.identifies + discord.stats.resumes;
      const child = spawn(process.execPath, [CLI_ENTRY, 'gateway', 'run', '--port', '0'], { env: { ...state.env, CLAW_TEST_RUNNER: 'echo' }, stdio: 'ignore' });
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      await expect.poll(() => discord.stats.identifies + discord.stats.resumes, { timeout: 30_000, interval: 5 }).toBeGreaterThan(connected);
      for (let i = 0; i < 3; i++) {
        const text = `c${chain}-r${round}-m${i}`;
        texts.push(text);
        discord.pushMessage(dm, ada, text);
      }
      await new Promise((resolve) => setTimeout(resolve, round % 3 === 0 ? 0 : Math.floor(Math.random() * 60)));
      child.kill('SIGKILL');
      await exited;
    }
    const gateway = await startGatewayChild(state, { CLAW_TEST_RUNNER: 'echo' });
    try {
      await expect.poll(() => new Set(botTexts(discord, dm)).size, { timeout: 60_000, interval: 100 }).toBeGreaterThanOrEqual(texts.length);
      await new Promise((resolve) => setTimeout(resolve, 500));
    } finally {
      await gateway.stop();
    }
    return { texts, replies: botTexts(discord, dm) };
  } finally {
    await discord.close();
    state.cleanup();
  }
}

describe('discord under kill -9', () => {
  it(`answers every DM exactly once across ${CHAINS * KILLS_PER_CHAIN} kills between the dispatch, the journal, the reply and its mark`, async () => {
    const chains = await Promise.all(Array.from({ length: CHAINS }, (_, chain) => killChain(chain)));
    for (const { texts, replies } of chains) {
      const counts = new Map<string, number>();
      for (const reply of replies) counts.set(reply, (counts.get(reply) ?? 0) + 1);
      for (const text of texts) expect(counts.get(`echo: ${text}`), `replies to ${text}`).toBe(1);
      expect(replies).toHaveLength(texts.length);
    }
  }, 300_000);
});
