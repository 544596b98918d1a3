import { describe, expect, it } from 'vitest';
import { Lifecycle } from '../../source/core/lifecycle.js';
import { RecordingLogger } from '../hooks/hook-fixtures.js';

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('Lifecycle.until', () => {
  it('holds every event until the barrier has subscribed its listeners, then delivers them in order', async () => {
    const lifecycle = new Lifecycle(new RecordingLogger());
    const seen: string[] = [];
    const subscribed = deferred();
    let calls = 0;
    lifecycle.until(() => {
      calls += 1;
      return subscribed.promise;
    });
    // Nothing is subscribed yet, but a gated path must not skip its wait.
    expect(lifecycle.has('message:received')).toBe(true);
    const gate = lifecycle.gate('message:received', { sessionKey: 's', messageId: 'm1', channel: 'tui', text: 'hi' });
    const start = lifecycle.emit('turn:start', { sessionKey: 's', runId: 'r1' });
    const end = lifecycle.emit('turn:end', { sessionKey: 's', runId: 'r1', status: 'replied' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toBe(1);
    lifecycle.on('message:received', () => ({ block: true, reason: 'closed', source: 'gate' }));
    lifecycle.on('turn:start', () => void seen.push('start'));
    lifecycle.on('turn:end', () => void seen.push('end'));
    subscribed.resolve();
    expect(await gate).toEqual({ reason: 'gate: closed' });
    await Promise.all([start, end]);
    expect(seen).toEqual(['start', 'end']);
    // Settled: the barrier is gone and an event with no listener is not waited for.
    expect(lifecycle.has('tool:before')).toBe(false);
    expect(calls).toBe(1);
  });

  it('a barrier that fails is logged and the events go on with the listeners there are', async () => {
    const log = new RecordingLogger();
    const lifecycle = new Lifecycle(log);
    const failing = deferred();
    lifecycle.until(() => failing.promise);
    const seen: string[] = [];
    lifecycle.on('command:new', ({ sessionKey }) => void seen.push(sessionKey));
    const emitted = lifecycle.emit('command:new', { sessionKey: 'agent:main:main' });
    failing.reject(new Error('the hooks folder cannot be read'));
    await emitted;
    expect(seen).toEqual(['agent:main:main']);
    expect(log.lines).toEqual(['warn lifecycle listeners failed to subscribe: the hooks folder cannot be read']);
  });

  it('a barrier added while others settle is waited for too', async () => {
    const lifecycle = new Lifecycle(new RecordingLogger());
    const first = deferred();
    const second = deferred();
    const order: string[] = [];
    lifecycle.until(async () => {
      await first.promise;
      order.push('first');
    });
    const emitted = lifecycle.emit('gateway:startup', {}).then(() => order.push('event'));
    lifecycle.until(async () => {
      await second.promise;
      order.push('second');
    });
    first.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['first']);
    second.resolve();
    await emitted;
    expect(order).toEqual(['first', 'second', 'event']);
  });

  it('listeners subscribed before the barrier still run as the event is emitted, not once it settles', async () => {
    const lifecycle = new Lifecycle(new RecordingLogger());
    const subscribed = deferred();
    const aborted: string[] = [];
    // Like cron's replay guard: it must act before the turn it hears about does any work.
    lifecycle.on('turn:start', ({ runId }) => void aborted.push(runId));
    lifecycle.until(() => subscribed.promise);
    const emitted = lifecycle.emit('turn:start', { sessionKey: 's', runId: 'replayed' });
    expect(aborted).toEqual(['replayed']);
    const late: string[] = [];
    lifecycle.on('turn:start', ({ runId }) => void late.push(runId));
    subscribed.resolve();
    await emitted;
    expect([aborted, late]).toEqual([['replayed'], ['replayed']]);
  });
});
