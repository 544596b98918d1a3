import { afterEach, describe, expect, it } from 'vitest';
import { startFakeDiscord, type FakeDiscord } from '../support/fake-discord.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { ada, DISCORD_TOKEN, discordChannelOn, GENERAL, GUILD, type ChannelProbe } from './discord-harness.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups.length = 0;
});

async function setUp(heartbeatIntervalMs = 300): Promise<{ discord: FakeDiscord; state: TempState }> {
  const discord = await startFakeDiscord({ token: DISCORD_TOKEN, heartbeatIntervalMs });
  const state = makeTempState();
  cleanups.push(
    () => state.cleanup(),
    () => discord.close(),
  );
  discord.guildChannel(GUILD, GENERAL, 'general');
  return { discord, state };
}

function started(probe: ChannelProbe): ChannelProbe {
  cleanups.push(() => probe.channel.stop());
  return probe;
}

const texts = (probe: ChannelProbe): string[] => probe.received.map((m) => m.text);

describe('the Discord gateway connection', () => {
  it('identifies with intents, takes a DM and a mention in an allowed channel, and RESUMEs a dropped socket with the missed events replayed once', async () => {
    const { discord, state } = await setUp();
    const probe = started(discordChannelOn(discord, state));
    await expect.poll(() => probe.channel.status().state).toBe('running');
    expect(probe.channel.status().identity).toBe('@claw_test');
    const dm = discord.dmChannel(ada);
    discord.pushMessage(dm, ada, 'hello');
    discord.pushMessage(GENERAL, ada, `<@${discord.bot.id}> what time is it?`, { mentions: [discord.bot] });
    discord.pushMessage(GENERAL, ada, 'not for the bot');
    await expect.poll(() => texts(probe)).toEqual(['hello', 'what time is it?']);
    expect(probe.received[1]).toMatchObject({ peer: { kind: 'group', id: GENERAL }, peerName: '#general', senderId: ada.id });
    expect(probe.channel.status().ignored).toEqual({ 'not mentioned': 1 });

    // The socket dies; Discord keeps the session's events; the resume replays them.
    discord.drop(1006);
    discord.pushMessage(dm, ada, 'sent while the socket was down');
    await expect.poll(() => texts(probe)).toContain('sent while the socket was down');
    expect(discord.stats.resumes).toBe(1);
    expect(discord.stats.identifies).toBe(1);
    expect(texts(probe).filter((t) => t === 'sent while the socket was down')).toHaveLength(1);
  });

  it('RECONNECT resumes at once; INVALID_SESSION (not resumable) identifies again and catches up from history', async () => {
    const { discord, state } = await setUp();
    const probe = started(discordChannelOn(discord, state));
    await expect.poll(() => probe.channel.status().state).toBe('running');
    const dm = discord.dmChannel(ada);
    discord.pushMessage(dm, ada, 'one');
    await expect.poll(() => texts(probe)).toEqual(['one']);
    discord.sendReconnect();
    await expect.poll(() => discord.stats.resumes).toBe(1);
    discord.pushMessage(dm, ada, 'two');
    await expect.poll(() => texts(probe)).toEqual(['one', 'two']);

    discord.invalidateSession(false);
    // Written while the session was gone: no dispatch ever reaches the bot, only the channel's history has it.
    discord.pushMessage(dm, ada, 'three', { historyOnly: true });
    await expect.poll(() => discord.stats.identifies).toBe(2);
    await expect.poll(() => texts(probe)).toEqual(['one', 'two', 'three']);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(texts(probe)).toEqual(['one', 'two', 'three']);
  });

  it('notices a zombie (no heartbeat ACKs) and a half-open socket within two heartbeat intervals, and resumes', async () => {
    const { discord, state } = await setUp(200);
    const probe = started(discordChannelOn(discord, state));
    await expect.poll(() => probe.channel.status().state).toBe('running');
    discord.zombie(true);
    const before = discord.stats.connections;
    const since = Date.now();
    await expect.poll(() => discord.stats.connections, { timeout: 3000, interval: 20 }).toBe(before + 1);
    // Two intervals (400 ms) plus the first reconnect delay (50 ms), with room for a loaded machine.
    expect(Date.now() - since).toBeLessThan(1500);
    discord.zombie(false);
    await expect.poll(() => discord.stats.resumes).toBe(1);

    discord.halfOpen();
    await expect.poll(() => discord.stats.resumes, { timeout: 3000, interval: 20 }).toBe(2);
    discord.pushMessage(discord.dmChannel(ada), ada, 'after the half-open socket');
    await expect.poll(() => texts(probe)).toEqual(['after the half-open socket']);
    expect(discord.liveSockets()).toBe(1);
  });

  it('a flapping gateway is retried on a capped, growing ladder — never a storm — and a refused token (4004) stops with the reason', async () => {
    const { discord, state } = await setUp();
    discord.refuseConnections(true, 1011);
    const probe = started(discordChannelOn(discord, state));
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    // 50 ms doubling: 50+100+200+400+800 = 1.55 s → about 5 connections in 2 s; a fixed 50 ms retry would have made ~40.
    expect(discord.stats.connections).toBeGreaterThanOrEqual(3);
    expect(discord.stats.connections).toBeLessThanOrEqual(7);
    expect(probe.channel.status().state).toBe('reconnecting');
    expect(probe.channel.status().reason).toMatch(/closed \(1011/);

    discord.refuseConnections(true, 4004);
    await expect.poll(() => probe.channel.status().state, { timeout: 5000 }).toBe('error');
    expect(probe.channel.status().reason).toMatch(/refused the bot token.*claw channels login discord/);
    const after = discord.stats.connections;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(discord.stats.connections).toBe(after);
  });

  it('a second gateway on the same token waits for the lock and never opens a second socket; it takes over when the first stops', async () => {
    const { discord, state } = await setUp();
    const first = started(discordChannelOn(discord, state, { owner: 'gateway-a' }));
    await expect.poll(() => first.channel.status().state).toBe('running');
    const second = started(discordChannelOn(discord, state, { owner: 'gateway-b' }));
    await expect.poll(() => second.channel.status().state).toBe('reconnecting');
    expect(second.channel.status().reason).toMatch(/another gateway .* holds this bot's connection/);
    const dm = discord.dmChannel(ada);
    discord.pushMessage(dm, ada, 'one');
    await expect.poll(() => texts(first)).toEqual(['one']);
    expect(discord.liveSockets()).toBe(1);
    expect(discord.stats.identifies).toBe(1);
    await first.channel.stop();
    await expect.poll(() => second.channel.status().state).toBe('running');
    discord.pushMessage(dm, ada, 'two');
    await expect.poll(() => texts(second)).toContain('two');
    expect(texts(first)).toEqual(['one']);
    expect(discord.liveSockets()).toBe(1);
  });

  it('honours the route buckets and a 429 burst: every message arrives, in order, with no refusal past the first forced ones', async () => {
    const discord = await startFakeDiscord({ token: DISCORD_TOKEN, heartbeatIntervalMs: 300, bucketLimit: 3, bucketWindowMs: 400 });
    const state = makeTempState();
    cleanups.push(
      () => state.cleanup(),
      () => discord.close(),
    );
    discord.guildChannel(GUILD, GENERAL, 'general');
    const probe = started(discordChannelOn(discord, state));
    await expect.poll(() => probe.channel.status().state).toBe('running');
    discord.rateLimit(/^POST \/channels\/\d+\/messages$/, 2, 0.2);
    const route = { channel: 'discord', accountId: 'default', peer: { kind: 'group' as const, id: GENERAL } };
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => probe.channel.send(route, { text: `part ${i}` })));
    expect(results.every((r) => r.delivered)).toBe(true);
    expect(discord.messages(GENERAL).map((m) => m.content)).toEqual(Array.from({ length: 8 }, (_, i) => `part ${i}`));
    // Only the two forced 429s: the client waited out each bucket instead of hitting it.
    expect(discord.refusals.filter((r) => r.code === 429)).toHaveLength(2);
  });
});
