import { describe, expect, it } from 'vitest';
import { readServerFrame, serverFrame } from '../../source/protocol/index.js';

// The client's hand-written frame check must accept and return exactly what the
// zod schema the gateway is written against does.
const error = { code: 'not_found', message: 'no such session', retryable: false };
const frames: unknown[] = [
  { type: 'res', id: 'a', ok: true, payload: { x: 1 } },
  { type: 'res', id: 'a', ok: true, payload: undefined },
  { type: 'res', id: 'a', ok: true, payload: null },
  { type: 'res', id: 'a', ok: true },
  { type: 'res', id: 'a', ok: true, payload: 1, extra: 2 },
  { type: 'res', id: 7, ok: true, payload: 1 },
  { type: 'res', id: 'a', ok: 'yes', payload: 1 },
  { type: 'res', id: 'a', ok: false, error },
  { type: 'res', id: 'a', ok: false, error: { ...error, retryAfterMs: 250, details: { key: 'k' } } },
  { type: 'res', id: 'a', ok: false, error: { ...error, ignored: true } },
  { type: 'res', id: 'a', ok: false, error: { ...error, code: 'teapot' } },
  { type: 'res', id: 'a', ok: false, error: { ...error, retryAfterMs: -1 } },
  { type: 'res', id: 'a', ok: false, error: { ...error, retryAfterMs: 1.5 } },
  { type: 'res', id: 'a', ok: false, error: { ...error, retryable: 'no' } },
  { type: 'res', id: 'a', ok: false, error: { code: 'internal', retryable: true } },
  { type: 'res', id: 'a', ok: false, error: 'boom' },
  { type: 'res', id: 'a', ok: false, error, payload: 1 },
  { type: 'res', id: 'a', ok: false },
  { type: 'event', event: 'chat', payload: { text: 'hi' }, seq: 3 },
  { type: 'event', event: 'chat', payload: undefined, seq: 0 },
  { type: 'event', event: 'chat', seq: 0 },
  { type: 'event', event: 'chat', payload: 1, seq: -1 },
  { type: 'event', event: 'chat', payload: 1, seq: 1.5 },
  { type: 'event', event: 'chat', payload: 1, seq: Number.MAX_SAFE_INTEGER + 2 },
  { type: 'event', event: 'chat', payload: 1, seq: '3' },
  { type: 'event', event: 4, payload: 1, seq: 3 },
  { type: 'event', event: 'chat', payload: 1, seq: 3, id: 'x' },
  { type: 'req', id: 'a', method: 'status' },
  { type: 'hello' },
  [],
  null,
  'res',
  42,
];

describe('readServerFrame', () => {
  it.each(frames.map((frame) => [JSON.stringify(frame) ?? String(frame), frame]))('agrees with serverFrame on %s', (_, frame) => {
    const parsed = serverFrame.safeParse(frame);
    expect(readServerFrame(frame)).toStrictEqual(parsed.success ? parsed.data : undefined);
  });

  it('accepts the well-formed frames of the list and refuses the rest', () => {
    expect(frames.filter((frame) => readServerFrame(frame) !== undefined)).toHaveLength(8);
  });
});
