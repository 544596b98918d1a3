import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { TestModule } from '../support/gateway-harness.js';
import { closeCodes } from '../../source/protocol/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { openConnected, waitFor, type RawClient } from './raw-client.js';

let gw: TestGateway | undefined;
const raws: RawClient[] = [];

afterEach(async () => {
  for (const client of raws.splice(0)) client.ws.terminate();
  await gw?.stop();
  gw = undefined;
});

async function connectRaw(target: TestGateway, extra: Record<string, unknown> = {}): Promise<{ raw: RawClient; hello: Record<string, unknown> }> {
  const result = await openConnected(target.url, target.token, extra);
  raws.push(result.raw);
  return result;
}

function eventSeqs(client: RawClient): number[] {
  return client.frames.filter((f) => f.type === 'event').map((f) => f.seq as number);
}

function emitTicks(target: TestGateway, from: number, count: number): void {
  for (let i = 0; i < count; i += 1) target.server.bus.emit('tick', { ts: from + i });
}

describe('events: seq and resume', () => {
  it('gives every event a seq one above the last, to every client', async () => {
    gw = await startTestGateway();
    const client = await gw.connect();
    const seen: number[] = [];
    let resyncs = 0;
    client.on('*', (_payload, seq) => seen.push(seq));
    client.on('resync', () => {
      resyncs += 1;
    });
    emitTicks(gw, 1, 50);
    const last = gw.server.bus.seq;
    await waitFor(() => seen.at(-1) === last, 'all ticks');
    expect(seen).toEqual(Array.from({ length: seen.length }, (_, i) => seen[0]! + i));
    expect(resyncs).toBe(0);
  });

  it('replays exactly the missed events to a client resuming with sinceSeq', async () => {
    gw = await startTestGateway();
    const first = await connectRaw(gw);
    const epoch = (first.hello.server as { epoch: string }).epoch;
    emitTicks(gw, 100, 3);
    await waitFor(() => eventSeqs(first.raw).at(-1) === gw!.server.bus.seq, 'first client caught up');
    const sinceSeq = gw.server.bus.seq;
    first.raw.ws.terminate();
    await waitFor(() => gw!.server.presence().length === 0, 'first client gone');
    emitTicks(gw, 200, 5);

    const second = await connectRaw(gw, { resume: { epoch, sinceSeq } });
    expect(second.hello).toMatchObject({ resume: 'replayed', seq: sinceSeq });
    const upTo = gw.server.bus.seq;
    await waitFor(() => (eventSeqs(second.raw).at(-1) ?? 0) >= upTo, 'replay');
    expect(eventSeqs(second.raw)).toEqual(Array.from({ length: upTo - sinceSeq }, (_, i) => sinceSeq + 1 + i));
    const ticks = second.raw.frames.filter((f) => f.event === 'tick').map((f) => (f.payload as { ts: number }).ts);
    expect(ticks).toEqual([200, 201, 202, 203, 204]);

    emitTicks(gw, 300, 1);
    await second.raw.next((f) => f.event === 'tick' && (f.payload as { ts: number }).ts === 300);
    const seqs = eventSeqs(second.raw);
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(seqs.at(-1)).toBe(gw.server.bus.seq);
  });

  it('answers a resume from another epoch with snapshot and replays nothing', async () => {
    gw = await startTestGateway();
    emitTicks(gw, 1, 5);
    const { raw, hello } = await connectRaw(gw, { resume: { epoch: 'an-earlier-run', sinceSeq: 2 } });
    expect(hello).toMatchObject({ resume: 'snapshot', seq: gw.server.bus.seq });
    expect(hello.snapshot).toHaveProperty('presence');
    // The new client is in its own presence list, so what it answers shows with its name from the start.
    const presence = (hello.snapshot as { presence: Array<{ connId: string }> }).presence;
    expect(presence.map((entry) => entry.connId)).toContain((hello.server as { connId: string }).connId);
    // Replayed frames would be sent before any later response.
    expect(await raw.request('health')).toMatchObject({ ok: true });
    expect(eventSeqs(raw).filter((seq) => seq <= (hello.seq as number))).toEqual([]);
  });

  it('answers a resume older than the buffer with snapshot', async () => {
    gw = await startTestGateway({ config: { gateway: { resumeBufferEvents: 5 } } });
    const first = await connectRaw(gw);
    const epoch = (first.hello.server as { epoch: string }).epoch;
    emitTicks(gw, 1, 20);
    const { raw, hello } = await connectRaw(gw, { resume: { epoch, sinceSeq: 1 } });
    expect(hello.resume).toBe('snapshot');
    expect(await raw.request('health')).toMatchObject({ ok: true });
    expect(eventSeqs(raw).filter((seq) => seq <= (hello.seq as number))).toEqual([]);
  });
});

describe('events: slow consumers', () => {
  it('drops a client that stopped reading and keeps every other client served', async () => {
    gw = await startTestGateway({ config: { gateway: { sendBufferLimitBytes: 256 * 1024 } } });
    const slow = await connectRaw(gw);
    const slowConnId = (slow.hello.server as { connId: string }).connId;
    const healthy = await gw.connect({ clientName: 'healthy' });
    let received = 0;
    healthy.on('health', () => {
      received += 1;
    });
    const seqs: number[] = [];
    let resyncs = 0;
    healthy.on('*', (_payload, seq) => seqs.push(seq));
    healthy.on('resync', () => {
      resyncs += 1;
    });
    (slow.raw.ws as unknown as { _socket: Socket })._socket.pause();

    const detail = 'x'.repeat(32 * 1024);
    let emitted = 0;
    const connected = () => gw!.server.presence().some((p) => p.connId === slowConnId);
    // Kernel socket buffers absorb a few MB first; flood until the gateway gives up on the reader.
    while (connected()) {
      if (emitted * detail.length > 512 * 1024 * 1024) throw new Error('the slow client was never dropped');
      for (let i = 0; i < 4; i += 1) {
        gw.server.bus.emit('health', { ok: true, uptimeMs: emitted, checks: { flood: { ok: true, detail } } });
        emitted += 1;
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    await waitFor(() => received === emitted, `healthy client received ${emitted} events`, 60_000);
    expect(healthy.state).toBe('open');
    // The drop emits presence in the middle of a fan-out; it must not overtake the event being sent.
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => seqs[0]! + i));
    expect(resyncs).toBe(0);
    expect((await healthy.request('status')).clients.map((c) => c.connId)).not.toContain(slowConnId);
    // Its close frame sits behind the data it never read, so it may only see the socket end.
    (slow.raw.ws as unknown as { _socket: Socket })._socket.resume();
    expect([closeCodes.slowConsumer, 1006]).toContain((await slow.raw.closed).code);
  });
});

describe('idempotency keys', () => {
  it('runs a mutating request once per key and replays its result', async () => {
    let runs = 0;
    const counter: TestModule = () => ({
      name: 'counter',
      handlers: {
        'commands.run': async ({ text }) => {
          runs += 1;
          await new Promise((resolve) => setTimeout(resolve, 20));
          return { reply: `${text} #${runs}` };
        },
      },
    });
    gw = await startTestGateway({ modules: [counter] });
    const client = await gw.connect();
    const params = { sessionKey: 'agent:main:main', text: '/status', idempotencyKey: 'k1' };
    const [a, b] = await Promise.all([client.request('commands.run', params), client.request('commands.run', params)]);
    const c = await client.request('commands.run', params);
    expect(runs).toBe(1);
    expect([a.reply, b.reply, c.reply]).toEqual(['/status #1', '/status #1', '/status #1']);

    const other = await gw.connect();
    expect((await other.request('commands.run', params)).reply).toBe('/status #1');
    expect((await client.request('commands.run', { ...params, idempotencyKey: 'k2' })).reply).toBe('/status #2');
    const { idempotencyKey: _omit, ...withoutKey } = params;
    await client.request('commands.run', withoutKey);
    await client.request('commands.run', withoutKey);
    expect(runs).toBe(4);
  });
});

describe('HTTP probes', () => {
  it('answers /healthz and /readyz without auth and without details', async () => {
    gw = await startTestGateway();
    const base = gw.url.replace('ws://', 'http://');
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ ok: true });
    const ready = await fetch(`${base}/readyz?token=${gw.token}`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true });
    for (const res of [health, ready]) {
      expect(res.headers.get('x-powered-by')).toBeNull();
      expect(res.headers.get('server')).toBeNull();
    }
    // /status (what `claw status` asks) tells nothing without the token.
    const status = await fetch(`${base}/status`);
    expect(status.status).toBe(401);
    expect(await status.text()).not.toMatch(/version|pid|claw-test/);
    const missing = await fetch(`${base}/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).not.toMatch(/version|pid|claw-test/);
  });
});
