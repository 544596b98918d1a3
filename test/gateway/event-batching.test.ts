import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { openConnected, waitFor, type RawClient } from './raw-client.js';

let gw: TestGateway | undefined;
let raw: RawClient | undefined;
let watcher: ChildProcess | undefined;

afterEach(async () => {
  watcher?.kill();
  watcher = undefined;
  raw?.ws.terminate();
  await gw?.stop();
  gw = undefined;
  raw = undefined;
});

/** The uptimes of the test's own `health` events, in the order they arrived. */
function burstUptimes(client: RawClient): number[] {
  return client.frames.flatMap((frame) => {
    if (frame.type !== 'event' || frame.event !== 'health') return [];
    const payload = frame.payload as { uptimeMs: number; checks: Record<string, unknown> };
    return payload.checks.burst ? [payload.uptimeMs] : [];
  });
}

// Frames sent in one tick share one write (the socket is corked until setImmediate);
// a reply's end is written at once, with what waited before it.
describe('events: one write per tick', () => {
  it('delivers the events of one tick whole and in order', async () => {
    gw = await startTestGateway();
    ({ raw } = await openConnected(gw.url, gw.token, {}));
    for (let i = 0; i < 5; i += 1) gw.server.bus.emit('health', { ok: true, uptimeMs: i, checks: { burst: { ok: true } } });
    await waitFor(() => burstUptimes(raw!).length === 5, 'five events');
    expect(burstUptimes(raw)).toEqual([0, 1, 2, 3, 4]);
  });

  it('does not take a burst larger than the send limit, sent to a reading client in one tick, for a slow consumer', async () => {
    gw = await startTestGateway({ config: { gateway: { sendBufferLimitBytes: 256 * 1024 } } });
    const opened = await openConnected(gw.url, gw.token, {});
    raw = opened.raw;
    const connId = (opened.hello.server as { connId: string }).connId;
    const detail = 'x'.repeat(16 * 1024);
    // 640 KiB in one tick: held back whole, it would pass the 256 KiB limit.
    for (let i = 0; i < 40; i += 1) gw.server.bus.emit('health', { ok: true, uptimeMs: i, checks: { burst: { ok: true, detail } } });
    await waitFor(() => burstUptimes(raw!).length === 40, 'forty events', 5_000);
    expect(burstUptimes(raw)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(gw.server.presence().some((entry) => entry.connId === connId)).toBe(true);
  });

  it("writes a reply's final frame at once, while the rest of its tick still runs", async () => {
    gw = await startTestGateway();
    const out = join(gw.state.dir, 'final-seen.json');
    watcher = spawn(process.execPath, [fileURLToPath(new URL('../support/reply-watcher.mjs', import.meta.url)), gw.url, gw.token, out], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      watcher!.stdout!.once('data', () => resolve());
      watcher!.once('exit', (code) => reject(new Error(`the watcher exited with ${code}`)));
    });
    const reply = { runId: 'r1', sessionKey: 'agent:main:main' };
    gw.server.bus.emit('health', { ok: true, uptimeMs: 0, checks: { burst: { ok: true } } });
    gw.server.bus.emit('chat', { ...reply, state: 'final', text: 'done' });
    // Still inside the tick that emitted it: only a frame already written can reach the other process.
    const deadline = Date.now() + 10_000;
    while (!existsSync(out) && Date.now() < deadline) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    expect(existsSync(out), 'the final frame reached the client before the tick ended').toBe(true);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({ state: 'final', text: 'done' });
  });
});
