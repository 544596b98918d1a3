// Discord channel costs against the fake Discord (Gateway v10 + REST v10) on loopback. Prints one JSON object.
//  - inbound: from the fake writing a MESSAGE_CREATE dispatch to the message being in the
//    inbound journal (the core's message.accepted), one at a time, p50/p99, with and without fsync;
//  - outbound: from core.outbound.deliver() of a reply to the fake receiving its POST, p50/p99;
//  - memory: heap growth for 1,000 DM chats that each sent a message, per chat;
//  - reconnects: connections a DiscordChannel opens over 10 minutes of a gateway that closes every
//    connection at once, on a clock running 40× (15 s of wall time), against a fixed 1 s retry's 600.
// Run: npx tsx --expose-gc bench/discord.ts [--messages N]
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { DiscordChannel } from '../source/channels/discord/discord-channel.js';
import { discordAccount } from '../source/channels/discord/config.js';
import type { Clock, TimerHandle } from '../source/config/index.js';
import type { TurnRunner } from '../source/queue/index.js';
import { ada, DISCORD_TOKEN, discordConfig } from '../test/channels/discord-harness.js';
import { startFakeDiscord, type DiscordUser } from '../test/support/fake-discord.js';
import { startTestGateway } from '../test/support/gateway-harness.js';
import { makeTempState } from '../test/support/temp-state.js';

const argMessages = Number(process.argv[process.argv.indexOf('--messages') + 1]);
const MESSAGES = Number.isFinite(argMessages) && argMessages > 0 ? argMessages : 200;
const CHATS = 1000;

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return Number(sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!.toFixed(3));
};

/** Answers nothing, at once: turns do not compete with what is measured. */
const idleRunner: TurnRunner = {
  async run() {
    return { status: 'suppressed' };
  },
};

const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

async function rig(fsync: boolean) {
  const discord = await startFakeDiscord({ token: DISCORD_TOKEN, bucketLimit: 1_000_000 });
  const state = makeTempState('claw-bench-discord-');
  const gateway = await startTestGateway({
    state,
    config: { ...discordConfig(state, discord, { dmPolicy: 'open', maxMessagesPerMinute: 1_000_000 }), queue: { mode: 'followup', debounceMs: 0 } },
    core: { runner: idleRunner, journalFsync: fsync },
  });
  while (gateway.core.channels.status()[0]?.state !== 'running') await new Promise((resolve) => setTimeout(resolve, 10));
  return {
    discord,
    gateway,
    async close() {
      await gateway.stop();
      await discord.close();
      state.cleanup();
    },
  };
}

async function inbound(fsync: boolean): Promise<{ p50: number; p99: number }> {
  const r = await rig(fsync);
  const samples: number[] = [];
  let accepted: (() => void) | undefined;
  const stopBus = r.gateway.core.events.subscribe((record) => {
    if (record.event === 'message.accepted') accepted?.();
  });
  const dm = r.discord.dmChannel(ada);
  for (let i = 0; i < MESSAGES; i++) {
    const done = new Promise<void>((resolve) => {
      accepted = resolve;
    });
    const t0 = performance.now();
    r.discord.pushMessage(dm, ada, `message ${i}`);
    await done;
    samples.push(performance.now() - t0);
  }
  stopBus();
  await r.close();
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

async function outbound(): Promise<{ p50: number; p99: number }> {
  const r = await rig(true);
  const samples: number[] = [];
  const route = { channel: 'discord', accountId: 'default', peer: { kind: 'direct' as const, id: ada.id } };
  // The DM channel is looked up once, as after the first message of a chat.
  await r.gateway.core.outbound.deliver(route, { sessionKey: 'k', runId: 'warm', messageId: 'warm', status: 'replied', text: 'warm' });
  for (let i = 0; i < MESSAGES; i++) {
    const before = r.discord.calls.length;
    const t0 = performance.now();
    const arrived = r.discord
      .waitFor((c) => r.discord.calls.indexOf(c) >= before && c.method === 'POST' && c.path.endsWith('/messages'))
      .then(() => performance.now());
    void r.gateway.core.outbound.deliver(route, {
      sessionKey: `agent:main:discord:direct:${ada.id}`,
      runId: `r${i}`,
      messageId: `m${i}`,
      status: 'replied',
      text: `reply **${i}**`,
    });
    samples.push((await arrived) - t0);
  }
  await r.close();
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

async function memory(): Promise<{ chats: number; heapBytesPerChat: number; gcExposed: boolean }> {
  const r = await rig(false);
  let count = 0;
  let all: (() => void) | undefined;
  const stopBus = r.gateway.core.events.subscribe((record) => {
    if (record.event === 'message.accepted' && ++count === CHATS) all?.();
  });
  const users: DiscordUser[] = Array.from({ length: CHATS }, (_, i) => ({ id: String(400_000_000_000_000_000n + BigInt(i)), username: `user${i}` }));
  const channels = users.map((user) => r.discord.dmChannel(user));
  gc();
  const before = process.memoryUsage().heapUsed;
  const done = new Promise<void>((resolve) => {
    all = resolve;
  });
  users.forEach((user, i) => r.discord.pushMessage(channels[i]!, user, `hello from ${i}`));
  await done;
  await new Promise((resolve) => setTimeout(resolve, 200));
  gc();
  const after = process.memoryUsage().heapUsed;
  stopBus();
  await r.close();
  return { chats: CHATS, heapBytesPerChat: Math.round((after - before) / CHATS), gcExposed: typeof (globalThis as { gc?: unknown }).gc === 'function' };
}

/** A clock `factor` times faster than the wall: the reconnect ladder of 10 minutes plays in 600/factor seconds. */
function fastClock(factor: number): Clock {
  const start = Date.now();
  const timers = new Map<number, NodeJS.Timeout>();
  let next = 0;
  return {
    now: () => start + (Date.now() - start) * factor,
    setTimer(callback, ms) {
      const id = ++next;
      timers.set(
        id,
        setTimeout(() => {
          timers.delete(id);
          callback();
        }, ms / factor),
      );
      return { id } as TimerHandle;
    },
    clearTimer(handle) {
      clearTimeout(timers.get(handle.id));
      timers.delete(handle.id);
    },
  };
}

async function flapping(): Promise<{ simulatedMinutes: number; connections: number; fixedOneSecondRetry: number }> {
  const factor = 40;
  const discord = await startFakeDiscord({ token: DISCORD_TOKEN });
  const state = makeTempState('claw-bench-discord-flap-');
  discord.refuseConnections(true, 1011);
  const account = discordAccount.parse({ apiRoot: discord.apiRoot, dmPolicy: 'open' });
  const channel = new DiscordChannel({
    accountId: 'default',
    token: DISCORD_TOKEN,
    config: () => account,
    clock: fastClock(factor),
    stateDir: join(state.dir, 'channels', 'discord'),
    lockOwner: 'bench',
    workspaceFor: () => state.dir,
    isApproved: () => true,
    onPairing: () => undefined,
    onButton: async () => '',
    onStatus: () => undefined,
    commands: async () => [],
    warn: () => undefined,
    info: () => undefined,
  });
  await channel.start(async (message) => ({ runId: message.messageId, status: 'started' }));
  await new Promise((resolve) => setTimeout(resolve, (600_000 / factor) | 0));
  await channel.stop();
  const connections = discord.stats.connections;
  await discord.close();
  state.cleanup();
  return { simulatedMinutes: 10, connections, fixedOneSecondRetry: 600 };
}

const result = {
  bench: 'discord',
  messages: MESSAGES,
  eventToJournalMs: { fsync: await inbound(true), noFsync: await inbound(false) },
  replyToRestMs: await outbound(),
  memory: await memory(),
  reconnects: await flapping(),
  targetsMs: { inbound: 5, outbound: 5 },
};
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
