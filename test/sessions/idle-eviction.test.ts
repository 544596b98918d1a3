import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GatewayClient } from '../../source/client/index.js';
import { configSchema } from '../../source/config/index.js';
import type { TurnContext, TurnOutcome, TurnRunner } from '../../source/queue/index.js';
import { loadTranscriptSync, SessionRegistry } from '../../source/sessions/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { ManualClock } from '../support/manual-clock.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

const MINUTE = 60_000;

/** Answers with every user message of the session's whole transcript, so a reply shows what history the turn saw; `hold` keeps a session's turn running. */
class HistoryRunner implements TurnRunner {
  readonly held = new Map<string, () => void>();
  hold = new Set<string>();

  async run(turn: TurnContext): Promise<TurnOutcome> {
    if (this.hold.has(turn.sessionKey)) await new Promise<void>((resolve) => this.held.set(turn.sessionKey, resolve));
    const seen = turn.session.entries().flatMap((e) => (e.type === 'message' && e.role === 'user' ? [e.content] : []));
    const text = `seen: ${seen.join('|')}`;
    turn.session.append({ type: 'message', role: 'assistant', content: [{ type: 'text', text }], stopReason: 'stop' });
    turn.emit('chat', { runId: turn.runId, sessionKey: turn.sessionKey, state: 'final', text });
    return { status: 'replied', text };
  }
}

function finals(client: GatewayClient): Map<string, string> {
  const texts = new Map<string, string>();
  client.on('chat', (p) => {
    if (p.state === 'final') texts.set(p.runId, p.text ?? '');
  });
  return texts;
}

async function send(client: GatewayClient, texts: Map<string, string>, sessionKey: string, text: string): Promise<string> {
  const { runId } = await client.request('chat.send', { sessionKey, text, idempotencyKey: `${sessionKey}/${text}` });
  await vi.waitFor(() => expect(texts.has(runId)).toBe(true), { timeout: 10_000, interval: 5 });
  return texts.get(runId)!;
}

/** Moves the clock a minute at a time, letting each sweep finish before the next one is due. */
async function pass(clock: ManualClock, minutes: number): Promise<void> {
  for (let i = 0; i < minutes; i += 1) {
    clock.advance(MINUTE);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

let gateway: TestGateway | undefined;
let state: TempState | undefined;
let registry: SessionRegistry | undefined;
afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
  await registry?.close();
  registry = undefined;
  state?.cleanup();
  state = undefined;
});

describe('idle sessions are evicted from memory', () => {
  it('through a real gateway: idle transcripts close after 10 minutes, busy ones stay, an evicted one answers with its full history', async () => {
    const clock = new ManualClock();
    const runner = new HistoryRunner();
    // The watchdog runs on the same clock: it must not end the held turn while time passes.
    gateway = await startTestGateway({ core: { clock, runner }, config: { queue: { watchdogSeconds: 7200 } } });
    const client = await gateway.connect();
    const texts = finals(client);
    const sessions = gateway.core.sessions.registry;
    const keys = Array.from({ length: 40 }, (_, i) => `agent:main:evict:direct:p${i}`);
    for (const key of keys) expect(await send(client, texts, key, `hello ${key}`)).toBe(`seen: hello ${key}`);
    const busyKey = 'agent:main:evict:direct:busy';
    runner.hold.add(busyKey);
    const { runId: busyRun } = await client.request('chat.send', { sessionKey: busyKey, text: 'slow', idempotencyKey: 'slow' });
    await vi.waitFor(() => expect(runner.held.has(busyKey)).toBe(true));
    expect(sessions.openCount()).toBe(41);

    await pass(clock, 5);
    expect(sessions.openCount()).toBe(41);
    await pass(clock, 7);
    await vi.waitFor(() => expect(sessions.openCount()).toBe(1));
    // The turn still running keeps its session, however long it takes.
    expect(gateway.core.lanes.laneInfo(busyKey).running).toBe(true);

    const again = keys[7]!;
    expect(await send(client, texts, again, 'and again')).toBe(`seen: hello ${again}|and again`);
    expect(sessions.openCount()).toBe(2);
    const history = await client.request('sessions.history', { key: again });
    expect(history.entries.map((e) => e.type === 'message' && e.role)).toEqual(['user', 'assistant', 'user', 'assistant']);

    runner.held.get(busyKey)!();
    await vi.waitFor(() => expect(texts.get(busyRun)).toBe('seen: slow'));
    await pass(clock, 12);
    await vi.waitFor(() => expect(sessions.openCount()).toBe(0));
  }, 60_000);

  it('a message queued behind a running turn keeps the session open; session.evictIdleMinutes: 0 turns eviction off', async () => {
    const clock = new ManualClock();
    const runner = new HistoryRunner();
    gateway = await startTestGateway({ core: { clock, runner }, config: { queue: { mode: 'followup', watchdogSeconds: 7200 } } });
    const core = gateway.core;
    const client = await gateway.connect();
    const texts = finals(client);
    const key = 'agent:main:evict:direct:queued';
    runner.hold.add(key);
    await client.request('chat.send', { sessionKey: key, text: 'first', idempotencyKey: 'first' });
    const { runId: second } = await client.request('chat.send', { sessionKey: key, text: 'second', idempotencyKey: 'second' });
    await vi.waitFor(() => expect(runner.held.has(key)).toBe(true));
    expect(core.lanes.laneInfo(key)).toEqual({ running: true, queued: 1 });
    await pass(clock, 15);
    expect(core.sessions.registry.openCount()).toBe(1);
    runner.hold.clear();
    runner.held.get(key)!();
    await vi.waitFor(() => expect(texts.get(second)).toBe('seen: first|second'));

    core.config.current.session.evictIdleMinutes = 0;
    await pass(clock, 30);
    expect(core.sessions.registry.openCount()).toBe(1);
    core.config.current.session.evictIdleMinutes = 10;
    await pass(clock, 12);
    await vi.waitFor(() => expect(core.sessions.registry.openCount()).toBe(0));
  }, 60_000);

  it('a caller still holding an evicted session writes to the same transcript, and reopening hands that same object back', async () => {
    state = makeTempState();
    let now = 1_000_000;
    registry = new SessionRegistry({ paths: state.paths, config: configSchema.parse({}), clock: { now: () => now } });
    const key = 'agent:main:main';
    const held = await registry.open(key);
    held.append({ type: 'message', role: 'user', content: 'one', meta: { messageId: 'm1' } });
    now += 5 * MINUTE;
    expect(await registry.evictIdle(10 * MINUTE, () => false)).toBe(0);
    expect(await registry.evictIdle(10 * MINUTE, () => true)).toBe(0);
    now += 6 * MINUTE;
    expect(await registry.evictIdle(10 * MINUTE, () => true)).toBe(0);
    expect(await registry.evictIdle(10 * MINUTE, () => false)).toBe(1);
    expect(registry.openCount()).toBe(0);
    expect(held.isOpen()).toBe(false);

    held.append({ type: 'message', role: 'assistant', content: [{ type: 'text', text: 'late' }], stopReason: 'stop' });
    expect(held.isOpen()).toBe(true);
    const reopened = await registry.open(key);
    expect(reopened).toBe(held);
    reopened.append({ type: 'message', role: 'user', content: 'two', meta: { messageId: 'm2' } });
    await registry.flush();
    const { entries } = loadTranscriptSync(registry.transcriptPath('main', held.sessionId));
    expect(entries).toHaveLength(3);
    for (let i = 1; i < entries.length; i += 1) expect(entries[i]!.parentId).toBe(entries[i - 1]!.id);
  });

  it('an evicted session that is reset meanwhile: the holder cannot write into the archived transcript, the key gets a fresh one', async () => {
    state = makeTempState();
    registry = new SessionRegistry({ paths: state.paths, config: configSchema.parse({}) });
    const key = 'agent:main:main';
    const held = await registry.open(key);
    held.append({ type: 'message', role: 'user', content: 'old', meta: { messageId: 'm1' } });
    expect(await registry.evictIdle(0, () => false)).toBe(1);
    registry.reset(key);
    expect(() => held.append({ type: 'message', role: 'user', content: 'stray', meta: { messageId: 'm2' } })).toThrow(/was closed .*open the session again/);
    const fresh = await registry.open(key);
    expect(fresh).not.toBe(held);
    expect(fresh.entries()).toEqual([]);
    fresh.append({ type: 'message', role: 'user', content: 'new', meta: { messageId: 'm3' } });
    await registry.flush();
    expect(loadTranscriptSync(registry.transcriptPath('main', fresh.sessionId)).entries).toHaveLength(1);
  });
});
