import { afterEach, describe, expect, it } from 'vitest';
import type { TurnEvents } from '../../source/core/index.js';
import type { TurnRunner } from '../../source/queue/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';

let gateway: TestGateway | undefined;

afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
});

/** Streams two deltas, calls one tool, then replies: what a real agent turn emits, without a model. */
const streamingRunner: TurnRunner = {
  async run(turn) {
    const base = { runId: turn.runId, sessionKey: turn.sessionKey };
    turn.emit('chat', { ...base, state: 'delta', delta: 'Hel' });
    turn.emit('agent', { ...base, stream: 'tool', phase: 'start', toolCallId: 't1', name: 'read', args: { path: 'a' } });
    turn.emit('agent', { ...base, stream: 'tool', phase: 'end', toolCallId: 't1', name: 'read', output: 'x', isError: false });
    turn.emit('chat', { ...base, state: 'delta', delta: 'lo' });
    turn.session.append({ type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Hello' }], stopReason: 'stop' });
    turn.emit('chat', { ...base, state: 'final', text: 'Hello' });
    return { status: 'replied', text: 'Hello' };
  },
};

describe('turn events in-process', () => {
  it('a subscriber hears start, deltas, tools and end as typed events, and the origin hears the outcome; clients get the same turn as frames', async () => {
    gateway = await startTestGateway({ core: { runner: streamingRunner } });
    const { turns } = gateway.core.ports;
    const heard: string[] = [];
    const on = <E extends keyof TurnEvents>(event: E, describe: (payload: TurnEvents[E]) => string): (() => void) =>
      turns.on(event, (payload) => heard.push(`${event} ${describe(payload)}`));
    const stops = [
      on('turn.start', (p) => p.sessionKey),
      on('turn.delta', (p) => p.delta),
      on('turn.tool', (p) => `${p.tool} ${p.phase}${p.isError ? ' error' : ''}`),
      on('turn.end', (p) => p.status),
    ];
    const outcomes: string[] = [];
    stops.push(turns.onOutcome('test-origin', (outcome) => void outcomes.push(`${outcome.status}: ${outcome.text}`)));
    const client = await gateway.connect();
    const frames: string[] = [];
    client.on('chat', (payload) => frames.push(payload.state));

    await gateway.core.inbound.accept({
      channel: 'test-origin',
      sessionKey: 'agent:main:main',
      peer: { kind: 'direct', id: 'x' },
      messageId: 'm-1',
      text: 'hi',
    });
    await expect.poll(() => outcomes).toEqual(['replied: Hello']);
    expect(heard).toEqual(['turn.start agent:main:main', 'turn.delta Hel', 'turn.tool read start', 'turn.tool read end', 'turn.delta lo', 'turn.end end']);
    await expect.poll(() => frames).toEqual(['delta', 'delta', 'final']);

    // Unsubscribed listeners hear nothing more; an origin nobody listens to is a delivery that finds no channel, not a crash.
    for (const stop of stops) stop();
    await gateway.core.inbound.accept({
      channel: 'test-origin',
      sessionKey: 'agent:main:main',
      peer: { kind: 'direct', id: 'x' },
      messageId: 'm-2',
      text: 'again',
    });
    await expect.poll(() => frames.length).toBe(6);
    expect(heard).toHaveLength(6);
    expect(outcomes).toHaveLength(1);
  });
});
