import { describe, expect, it } from 'vitest';
import { ClawError, eventNames, events, hasScope, isMethodName, methodNames, methods, requestFrame, serverFrame } from '../../source/protocol/index.js';

describe('protocol registry', () => {
  it('declares every method under its own name with schemas and a scope', () => {
    expect(methodNames).toEqual(expect.arrayContaining(['health', 'status', 'gateway.shutdown']));
    for (const name of methodNames) {
      const spec = methods[name];
      expect(spec.name).toBe(name);
      expect(typeof spec.params.safeParse).toBe('function');
      expect(typeof spec.result.safeParse).toBe('function');
      expect(['read', 'write', 'admin', 'approvals']).toContain(spec.scope);
    }
    expect(isMethodName('connect')).toBe(false);
    expect(isMethodName('toString')).toBe(false);
  });

  it('declares every event under its own name', () => {
    expect(eventNames).toEqual(expect.arrayContaining(['tick', 'presence', 'health', 'shutdown']));
    for (const name of eventNames) expect(events[name].name).toBe(name);
  });

  it('accepts idempotencyKey on every mutating method that takes an object', () => {
    for (const name of methodNames) {
      const spec = methods[name];
      if (!spec.mutating) continue;
      const shape = (spec.params as unknown as { unwrap?: () => unknown }).unwrap?.() ?? spec.params;
      const keys = Object.keys((shape as { shape?: Record<string, unknown> }).shape ?? {});
      expect(keys, name).toContain('idempotencyKey');
    }
  });
});

describe('frames', () => {
  it('accepts requests and responses in the documented shapes only', () => {
    expect(requestFrame.safeParse({ type: 'req', id: '1', method: 'health' }).success).toBe(true);
    expect(requestFrame.safeParse({ type: 'req', id: '', method: 'health' }).success).toBe(false);
    expect(requestFrame.safeParse({ type: 'req', id: '1', method: 'health', extra: 1 }).success).toBe(false);
    expect(serverFrame.safeParse({ type: 'res', id: '1', ok: true, payload: null }).success).toBe(true);
    expect(serverFrame.safeParse({ type: 'res', id: '1', ok: false, error: { code: 'internal', message: 'x', retryable: false } }).success).toBe(true);
    expect(serverFrame.safeParse({ type: 'res', id: '1', ok: false, error: { code: 'oops', message: 'x', retryable: false } }).success).toBe(false);
    expect(serverFrame.safeParse({ type: 'event', event: 'tick', payload: { ts: 1 }, seq: 3 }).success).toBe(true);
  });

  it('round-trips errors with retry hints', () => {
    const error = new ClawError('rate_limited', 'slow down', { retryAfterMs: 1500 });
    expect(error.toShape()).toEqual({ code: 'rate_limited', message: 'slow down', retryable: true, retryAfterMs: 1500 });
    const back = ClawError.fromShape(error.toShape());
    expect(back).toBeInstanceOf(ClawError);
    expect(back).toMatchObject({ code: 'rate_limited', retryable: true, retryAfterMs: 1500 });
    expect(new ClawError('bad_request', 'x').retryable).toBe(false);
  });

  it('orders scopes: admin implies write implies read; approvals only explicitly', () => {
    expect(hasScope(['admin'], 'read')).toBe(true);
    expect(hasScope(['write'], 'admin')).toBe(false);
    expect(hasScope(['admin'], 'approvals')).toBe(false);
    expect(hasScope(['approvals'], 'approvals')).toBe(true);
  });
});
