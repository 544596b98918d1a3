// Telegram channel costs against the fake Bot API server on loopback. Prints one JSON object.
//  - inbound: from the moment the fake server writes a getUpdates answer to the
//    moment the message is in the inbound journal (the core's message.accepted),
//    one update at a time, p50/p99; with the journal's fsync and without it;
//  - outbound: from core.outbound.deliver() of a reply to the fake server
//    receiving its sendMessage, p50/p99;
//  - memory: heap growth for 1,000 chats that each sent a message (sessions,
//    routes, journal records), per chat.
// Both latencies include one loopback HTTP exchange; the fake server answers at once.
// Run: npx tsx --expose-gc bench/telegram.ts [--messages N]
import { performance } from 'node:perf_hooks';
import type { TurnRunner } from '../source/queue/index.js';
import { startFakeTelegram, type FakeUser } from '../test/support/fake-telegram.js';
import { startTestGateway } from '../test/support/gateway-harness.js';
import { makeTempState } from '../test/support/temp-state.js';
import { TOKEN, telegramConfig } from '../test/channels/telegram-harness.js';

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
  const telegram = await startFakeTelegram({ token: TOKEN });
  const state = makeTempState('claw-bench-telegram-');
  const gateway = await startTestGateway({
    state,
    config: { ...telegramConfig(state, telegram, { dmPolicy: 'open', pollTimeoutSeconds: 30 }), queue: { mode: 'followup', debounceMs: 0 } },
    core: { runner: idleRunner, journalFsync: fsync },
  });
  await telegram.waitFor((c) => c.method === 'getUpdates');
  return {
    telegram,
    gateway,
    async close() {
      await gateway.stop();
      await telegram.close();
      state.cleanup();
    },
  };
}

async function inbound(fsync: boolean): Promise<{ p50: number; p99: number }> {
  const r = await rig(fsync);
  const samples: number[] = [];
  let servedAt = 0;
  const stopServed = r.telegram.onUpdatesServed(() => {
    servedAt = performance.now();
  });
  let accepted: (() => void) | undefined;
  const stopBus = r.gateway.core.events.subscribe((record) => {
    if (record.event === 'message.accepted') accepted?.();
  });
  const user: FakeUser = { id: 5000, first_name: 'Bench' };
  for (let i = 0; i < MESSAGES; i++) {
    const done = new Promise<void>((resolve) => {
      accepted = resolve;
    });
    r.telegram.pushMessage({ id: user.id, type: 'private' }, user, `message ${i}`);
    await done;
    samples.push(performance.now() - servedAt);
  }
  stopServed();
  stopBus();
  await r.close();
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

async function outbound(): Promise<{ p50: number; p99: number }> {
  const r = await rig(true);
  const samples: number[] = [];
  const route = { channel: 'telegram', accountId: 'default', peer: { kind: 'direct' as const, id: '5000' } };
  for (let i = 0; i < MESSAGES; i++) {
    const before = r.telegram.calls.length;
    const t0 = performance.now();
    const arrived = r.telegram.waitFor((c) => r.telegram.calls.indexOf(c) >= before && c.method === 'sendMessage').then(() => performance.now());
    void r.gateway.core.outbound.deliver(route, {
      sessionKey: 'agent:main:telegram:direct:5000',
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
  gc();
  const before = process.memoryUsage().heapUsed;
  const done = new Promise<void>((resolve) => {
    all = resolve;
  });
  for (let i = 0; i < CHATS; i++) {
    const user: FakeUser = { id: 100_000 + i, first_name: `User ${i}` };
    r.telegram.pushMessage({ id: user.id, type: 'private' }, user, `hello from ${i}`);
  }
  await done;
  await new Promise((resolve) => setTimeout(resolve, 200));
  gc();
  const after = process.memoryUsage().heapUsed;
  stopBus();
  await r.close();
  return { chats: CHATS, heapBytesPerChat: Math.round((after - before) / CHATS), gcExposed: typeof (globalThis as { gc?: unknown }).gc === 'function' };
}

const result = {
  messages: MESSAGES,
  inboundToJournalMs: { fsync: await inbound(true), noFsync: await inbound(false) },
  replyToSendMessageMs: await outbound(),
  memory: await memory(),
  targetsMs: { inbound: 5, outbound: 5 },
};
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
